import CalDAV
import CalDAVServerSupport
import Testing

extension CalDAVServerTests {
@Suite("writing with preconditions")
struct WriteTests {
    @Test("If-None-Match creates once; If-Match needs the current ETag", arguments: everyServerKind)
    func putPreconditions(kind: CalDAVTestServer.Kind) async throws {
        let server = try CalDAVTestServer.start(kind)
        try await withClient(server) { client in
            let href = client.href(forUID: "write-1@example.com")
            let created = try #require(
                try await client.put(href, calendarText: todoCalendar(uid: "write-1@example.com", summary: "One"), condition: .ifNoneMatch))

            let again = await caldavError {
                _ = try await client.put(href, calendarText: todoCalendar(uid: "write-1@example.com", summary: "Two"), condition: .ifNoneMatch)
            }
            #expect(again == .preconditionFailed(url: server.baseURL + href))

            let stale = await caldavError {
                _ = try await client.put(
                    href, calendarText: todoCalendar(uid: "write-1@example.com", summary: "Two"), condition: .ifMatch("\"stale\""))
            }
            #expect(stale == .preconditionFailed(url: server.baseURL + href))

            let updated = try await client.put(
                href, calendarText: todoCalendar(uid: "write-1@example.com", summary: "Three"), condition: .ifMatch(created))
            let fetched = try #require(try await client.get(href))
            #expect(fetched.href == href)
            #expect(fetched.calendarData.contains("SUMMARY:Three"))
            #expect(updated == nil || updated == fetched.etag)
            #expect(fetched.etag != created)
        }
    }

    @Test("delete honours If-Match and reports a resource already gone", arguments: everyServerKind)
    func deleteWithPrecondition(kind: CalDAVTestServer.Kind) async throws {
        let server = try CalDAVTestServer.start(kind)
        try await withClient(server) { client in
            let href = client.href(forUID: "delete-1")
            let etag = try #require(
                try await client.put(href, calendarText: todoCalendar(uid: "delete-1", summary: "Bye"), condition: .ifNoneMatch))
            let stale = await caldavError { try await client.delete(href, ifMatch: "\"stale\"") }
            #expect(stale == .preconditionFailed(url: server.baseURL + href))
            #expect(try await client.get(href) != nil)

            #expect(try await client.delete(href, ifMatch: etag))
            #expect(try await client.get(href) == nil)
            #expect(try await client.delete(href, ifMatch: nil) == false)
        }
    }

    @Test("UIDs with any characters get hrefs that work and keep one spelling", arguments: everyServerKind)
    func awkwardUIDs(kind: CalDAVTestServer.Kind) async throws {
        let server = try CalDAVTestServer.start(kind)
        let uids = [
            "a b@c+d%e?f#g&h;i=j", "ünïcödé-✓", "with/slash", ".hidden", String(repeating: "long", count: 80), "x'y\"z<>",
        ]
        try await withClient(server) { client in
            var written: [String: String] = [:]
            for uid in uids {
                let href = client.href(forUID: uid)
                #expect(href.hasPrefix(client.account.collectionPath))
                #expect(href.hasSuffix(".ics"))
                #expect(client.path(forHref: href) == href, "the key spelling is stable")
                let etag = try await client.put(href, calendarText: todoCalendar(uid: uid, summary: "odd"), condition: .ifNoneMatch)
                let fetched = try #require(try await client.get(href), "\(uid) is readable at \(href)")
                #expect(plainText(fetched.calendarData).contains("UID:\(uid)"))
                written[href] = etag ?? fetched.etag
            }
            let listed = try await client.listing()
            #expect(listed == written)
            let fetched = try await client.fetch(Array(written.keys))
            #expect(Set(fetched.map(\.href)) == Set(written.keys))
        }
    }
}
}
