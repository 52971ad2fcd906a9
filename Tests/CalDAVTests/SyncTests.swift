import CalDAV
import CalDAVServerSupport
import Testing

extension CalDAVServerTests {
@Suite("sync-collection")
struct SyncTests {
    @Test("changes since a token list exactly what a phone added, changed and deleted", arguments: everyServerKind)
    func phoneEdits(kind: CalDAVTestServer.Kind) async throws {
        let server = try CalDAVTestServer.start(kind)
        try await withClient(server) { client in
            let ours = client.href(forUID: "ours-1")
            _ = try await client.put(ours, calendarText: todoCalendar(uid: "ours-1", summary: "Ours"), condition: .ifNoneMatch)
            let first = try await client.changes(since: nil)
            #expect(Array(first.changed.keys) == [ours])
            #expect(first.removed.isEmpty)

            let printed = try server.phone("""
                todo = calendar.save_todo(\"\"\"\(todoCalendar(uid: "phone-1", summary: "From the phone"))\"\"\")
                print(todo.url)
                """)
            let phoneHref = try #require(client.path(forHref: printed.trimmingCharacters(in: .whitespacesAndNewlines)))
            let added = try await client.changes(since: first.newToken)
            #expect(Array(added.changed.keys) == [phoneHref])
            #expect(added.removed.isEmpty)
            #expect(added.newToken != first.newToken)
            let fetched = try await client.fetch([phoneHref])
            #expect(fetched.map(\.etag) == [added.changed[phoneHref]])
            #expect(fetched.first?.calendarData.contains("From the phone") == true)

            _ = try server.phone("""
                todo = calendar.todo_by_uid("phone-1")
                todo.vobject_instance.vtodo.summary.value = "Edited on the phone"
                todo.save()
                """)
            let edited = try await client.changes(since: added.newToken)
            #expect(Array(edited.changed.keys) == [phoneHref])
            #expect(edited.changed[phoneHref] != added.changed[phoneHref])

            _ = try server.phone("calendar.todo_by_uid(\"phone-1\").delete()")
            let deleted = try await client.changes(since: edited.newToken)
            #expect(deleted.changed.isEmpty)
            #expect(deleted.removed == [phoneHref])

            let unchanged = try await client.changes(since: deleted.newToken)
            #expect(unchanged.changed.isEmpty && unchanged.removed.isEmpty)
        }
    }

    @Test("a token the server never gave is refused as syncTokenInvalid", arguments: everyServerKind)
    func bogusToken(kind: CalDAVTestServer.Kind) async throws {
        let server = try CalDAVTestServer.start(kind)
        try await withClient(server) { client in
            let real = try #require(try await client.probe().syncToken)
            // Shaped like the server's own tokens, and not shaped at all.
            let lookalike = kind == .radicale
                ? "http://radicale.org/ns/sync/" + String(repeating: "0", count: 64)
                : String(repeating: "0", count: 40)
            for token in [lookalike, "bogus-token"] {
                let error = await caldavError { _ = try await client.changes(since: token) }
                #expect(error == .syncTokenInvalid(url: server.collectionURL), "token \(token)")
            }
            // The real one still works after the refusals.
            let changes = try await client.changes(since: real)
            #expect(changes.changed.isEmpty && changes.removed.isEmpty)
        }
    }

    @Test("a token survives a restart; a killed server is a connection error", arguments: everyServerKind)
    func serverKilledMidSync(kind: CalDAVTestServer.Kind) async throws {
        let server = try CalDAVTestServer.start(kind)
        try await withClient(server) { client in
            let first = try await client.changes(since: nil)
            _ = try server.phone("calendar.save_todo(\"\"\"\(todoCalendar(uid: "before-kill", summary: "x"))\"\"\")")
            server.kill()
            let error = try #require(await caldavError { _ = try await client.changes(since: first.newToken) })
            guard case .connection(let url, let reason) = error else {
                Issue.record("expected a connection error, got \(error)")
                return
            }
            #expect(url == server.collectionURL)
            // Refused, or, when the request went out on a kept-alive
            // connection the kill cut, closed.
            #expect(reason.contains("refused") || reason.contains("closed the connection"), "\(reason)")

            try server.restart()
            let after = try await client.changes(since: first.newToken)
            #expect(after.changed.count == 1)
            #expect(after.changed.keys.first?.hasSuffix(".ics") == true)
        }
    }
}
}
