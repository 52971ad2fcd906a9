import CalDAV
import Foundation
import Testing

extension CalDAVServerTests {
@Suite("accounts")
struct AccountTests {
    @Test("the collection URL is normalised to end in a slash, without query or fragment")
    func normalised() throws {
        let account = try CalDAVAccount(collectionURL: "HTTPS://dav.example/me/my%20tasks?x=1#y", user: "me", password: "pw")
        #expect(account.collectionURL.absoluteString == "https://dav.example/me/my%20tasks/")
        #expect(account.collectionPath == "/me/my%20tasks/")
        let root = try CalDAVAccount(collectionURL: "http://127.0.0.1:5232", user: "me", password: "pw")
        #expect(root.collectionURL.absoluteString == "http://127.0.0.1:5232/")
    }

    @Test("the password shows nowhere")
    func passwordHidden() throws {
        let account = try CalDAVAccount(collectionURL: "https://dav.example/cal/", user: "me", password: "s3cret-pw")
        #expect(!account.description.contains("s3cret-pw"))
        #expect(!"\(account)".contains("s3cret-pw"))
        #expect(!String(reflecting: CalDAVError.unauthorized(url: account.collectionURL.absoluteString)).contains("s3cret-pw"))
    }

    @Test("unusable accounts are refused with a reason")
    func refused() {
        let cases = [
            ("ftp://dav.example/cal/", "not an http or https URL"),
            ("/just/a/path/", "not an http or https URL"),
            ("https://user:pw@dav.example/cal/", "user name or password in it"),
        ]
        for (url, reason) in cases {
            #expect {
                _ = try CalDAVAccount(collectionURL: url, user: "me", password: "pw")
            } throws: { error in
                guard case .invalidAccount(let message)? = error as? CalDAVError else { return false }
                return message.contains(reason)
            }
        }
        #expect(throws: CalDAVError.invalidAccount("cannot read the CA file /nonexistent/ca.pem")) {
            _ = try CalDAVAccount(collectionURL: "https://dav.example/cal/", user: "me", password: "pw", caFile: "/nonexistent/ca.pem")
        }
    }
}
}
