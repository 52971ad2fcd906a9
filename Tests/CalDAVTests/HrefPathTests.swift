@testable import CalDAV
import Foundation
import Testing

extension CalDAVServerTests {
@Suite("href spelling")
struct HrefPathTests {
    let collection = URL(string: "https://dav.example:8443/me/tasks/")!

    @Test("one resource, however the server spells it, has one key")
    func oneSpelling() {
        let spellings = [
            "/me/tasks/a%40b%2Bc.ics", "/me/tasks/a@b%2bc.ics", "/me/tasks/a%40b%2Bc.ics?x=1",
            "https://dav.example:8443/me/tasks/a@b%2Bc.ics", "a%40b%2Bc.ics", "  /me/tasks/a@b%2bc.ics\n",
        ]
        let keys = Set(spellings.map { HrefPath.normalise($0, relativeTo: collection) })
        #expect(keys == ["/me/tasks/a%40b%2Bc.ics"])
    }

    @Test("a %2F stays inside its name; non-UTF-8 bytes and stray % survive")
    func segmentsKeepTheirBytes() {
        #expect(HrefPath.canonical("/me/tasks/a%2Fb.ics") == "/me/tasks/a%2Fb.ics")
        #expect(HrefPath.canonical("/me/tasks/caf%e9.ics") == "/me/tasks/caf%E9.ics")
        #expect(HrefPath.canonical("/me/tasks/100%.ics") == "/me/tasks/100%25.ics")
        #expect(HrefPath.canonical("/me/tasks/ü ✓.ics") == "/me/tasks/%C3%BC%20%E2%9C%93.ics")
        #expect(HrefPath.canonical("/me/tasks/A-z_0.9~.ics") == "/me/tasks/A-z_0.9~.ics")
    }

    @Test("Xandikos's percent-encoded absolute href of a missing collection is its path")
    func encodedAbsoluteHref() {
        #expect(HrefPath.normalise("http%3A//127.0.0.1%3A5233/user/calendars/tasks/", relativeTo: collection)
            == "/user/calendars/tasks/")
    }

    @Test("members are one segment below the collection, and not collections")
    func membership() {
        #expect(HrefPath.isMember("/me/tasks/a.ics", of: "/me/tasks/"))
        #expect(HrefPath.isMember("/me/tasks/no-extension", of: "/me/tasks/"))
        #expect(!HrefPath.isMember("/me/tasks/", of: "/me/tasks/"))
        #expect(!HrefPath.isMember("/me/tasks/sub/", of: "/me/tasks/"))
        #expect(!HrefPath.isMember("/me/tasks/sub/a.ics", of: "/me/tasks/"))
        #expect(!HrefPath.isMember("/me/other/a.ics", of: "/me/tasks/"))
    }

    @Test("new hrefs: plain UIDs as they are, others by hash, all stable")
    func hrefsForUIDs() async throws {
        try await withClient(try CalDAVAccount(collectionURL: collection, user: "me", password: "pw")) { client in
            #expect(client.href(forUID: "0A1b-2c_3.d~e@host.example") == "/me/tasks/0A1b-2c_3.d~e%40host.example.ics")
            for odd in ["a/b", "a b", "a?b", "a#b", "a+b", "..", ".x", "", String(repeating: "x", count: 201), "ü"] {
                let href = client.href(forUID: odd)
                #expect(href.range(of: #"^/me/tasks/todo-[0-9a-f]{16}\.ics$"#, options: .regularExpression) != nil, "\(odd)")
                #expect(client.href(forUID: odd) == href)
            }
            #expect(client.href(forUID: "a b") != client.href(forUID: "a+b"))
        }
        #expect(CalDAVClient.fnv1a64Hex("") == "cbf29ce484222325")
        #expect(CalDAVClient.fnv1a64Hex("a") == "af63dc4c8601ec8c")
    }
}
}
