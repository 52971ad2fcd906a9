import CalDAVServerSupport
import Foundation
import Testing

/// The sync when things go wrong: the server down while the list changes,
/// the server or todod killed in the middle of a sync, a sync token the
/// server forgot, a resource on the server that cannot be read, a wrong
/// password, the collection deleted or emptied. Each time the sync says
/// what is wrong in `sync status`, deletes nothing here that the server did
/// not delete, and once the fault is gone the list and the server agree,
/// with no to-do twice.
extension SyncFaultsLane {
@Suite struct SyncFaultsEndToEndTests {
    static let servers = SyncEndToEndTests.SyncBasicsEndToEndTests.servers

    /// `count` items titled "`prefix` 1" … added in one import (todo.txt:
    /// the items get todod's own UIDs, as if added one by one).
    static func addItems(_ list: SyncedList, _ prefix: String, _ range: ClosedRange<Int>) async throws {
        let file = list.daemon.directory.appendingPathComponent("\(prefix)-\(UUID().uuidString).txt")
        try Data(range.map { "\(prefix) \($0)\n" }.joined().utf8).write(to: file)
        try await list.todo("import", file.path)
    }

    @Test(arguments: servers)
    func fiveHundredEditsMadeWhileTheServerIsDownGoOutWhenItIsBack(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        let server = list.server
        try await Self.addItems(list, "synced", 1...200)
        try await list.syncNow()
        #expect(try list.serverTodos().count == 200)

        server.stop()
        // 500 changes: 100 edited, 100 deleted, 300 added.
        try await list.todo(["modify"] + (1...100).map(String.init) + ["pri:H", "+offline"])
        try await list.todo(["rm"] + (101...200).map(String.init))
        try await Self.addItems(list, "offline", 1...300)
        let said = try await list.syncNowFailing()
        var status = try await list.status()
        let error = status["error"] as? String ?? ""
        #expect(error.contains(server.collectionURL) && error.contains("connection refused"), "\(error)\n\(said)")
        #expect(status["pending"] as? Int == 500, "\(status)")
        #expect(try await list.listTodos().count == 400)

        try server.restart()
        // Half of what was synced deleted: the sync asks first, and until
        // it is told, nothing changes on the server.
        let held = try await list.sync(["now"])
        #expect(held.status == 65 && held.stderr.contains("--allow-deletions"), "\(held)")
        #expect(try list.serverTodos().count == 200)
        let allowed = try await list.sync(["now", "--allow-deletions"])
        #expect(allowed.status == 0, "\(allowed)")
        status = try await list.status()
        #expect(status["error"] == nil || status["error"] is NSNull, "\(status)")
        #expect(status["pending"] as? Int == 0, "\(status)")
        #expect(status["synced"] as? Int == 400, "\(status)")
        let there = try list.serverTodos()
        #expect(there.count == 400 && Set(there.map(\.uid)).count == 400)
        #expect(there.count { $0.text.contains("PRIORITY:1") } == 100)
        #expect(try await list.disagreements() == [])
    }

    /// Which command makes the big first sync: `sync add` (the set-up's
    /// own first sync) or `sync now` (300 items made after an empty set-up).
    enum FirstSync: String, CaseIterable, Sendable { case add, now }

    @Test(arguments: servers, FirstSync.allCases)
    func theServerKilledInTheMiddleOfABigFirstSyncLeavesNoDuplicates(_ kind: CalDAVTestServer.Kind, _ by: FirstSync) async throws {
        let server = try SyncEndToEndTests.SyncBasicsEndToEndTests.server(kind)
        defer { server.stop() }
        let list = try SyncedList(server: server)
        if by == .now { try await list.start() } else { try await list.daemon.start() }
        try await Self.addItems(list, "first", 1...300)

        let before = server.putsLogged
        let output = OutputCollector()
        let syncing = try list.startSync(by == .add ? try list.addArguments() : ["now"], output: output)
        let deadline = ContinuousClock.now + .seconds(120)
        while server.putsLogged < before + 20, syncing.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(syncing.isRunning, "the sync ended before the server was killed: \(output.text)")
        server.kill()
        let status = await syncing.waitForExit(timeout: .seconds(120))
        #expect(status != nil && status != 0, "todod-sync \(by): \(output.text)")
        let arrived = server.putsLogged - before
        #expect(arrived < 300, "every to-do arrived before the kill")

        // Xandikos 0.2.8 killed while committing a write leaves git's lock
        // files behind (index.lock, refs/heads/master.lock), and then fails
        // every write (500) until they are removed: its own crash recovery,
        // which whoever restarts it does. The server is dead, so any lock is stale.
        if let files = FileManager.default.enumerator(atPath: server.directory) {
            for case let file as String in files where file.contains(".git/") && file.hasSuffix(".lock") {
                try FileManager.default.removeItem(atPath: server.directory + "/" + file)
            }
        }
        try server.restart()
        try await list.syncNow()
        let there = try list.serverTodos()
        #expect(there.count == 300, "\(there.count) on the server")
        #expect(Set(there.map(\.uid)).count == 300 && Set(there.map(\.summary)).count == 300)
        #expect(try await list.listTodos().count == 300)
        #expect(try await list.disagreements() == [])
    }

    @Test(arguments: servers)
    func todoDKilledInTheMiddleOfASyncLosesNothing(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        let server = list.server
        _ = try server.phone(
            """
            for n in range(1, 151):
                calendar.save_todo('BEGIN:VCALENDAR\\r\\nVERSION:2.0\\r\\nPRODID:-//Example//Phone Tasks//EN\\r\\nBEGIN:VTODO\\r\\n'
                    'UID:phone-%d@phone.example\\r\\nDTSTAMP:20261127T090000Z\\r\\nSUMMARY:phone %d\\r\\nEND:VTODO\\r\\nEND:VCALENDAR\\r\\n' % (n, n))
            """)
        try await Self.addItems(list, "here", 1...150)

        // todod goes while the round writes the list's to-dos to the server
        // (the server's are in the list by then).
        let before = server.putsLogged
        let output = OutputCollector()
        let syncing = try list.startSync(output: output)
        let deadline = ContinuousClock.now + .seconds(120)
        while server.putsLogged < before + 10, syncing.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(syncing.isRunning, "the sync ended before todod was killed: \(output.text)")
        try await list.daemon.kill()
        let status = await syncing.waitForExit(timeout: .seconds(120))
        #expect(status != nil && status != 0, "todod-sync now: \(output.text)")

        try await list.daemon.start()
        try await list.syncNow()
        let here = try await list.listTodos()
        #expect(here.count == 300 && Set(here.map(\.uid)).count == 300, "\(here.count) here")
        let there = try list.serverTodos()
        #expect(there.count == 300 && Set(there.map(\.uid)).count == 300, "\(there.count) there")
        #expect(try await list.disagreements() == [])
    }

    enum TokenDamage: String, CaseIterable, Sendable { case deleted, bogus }

    @Test(arguments: servers, TokenDamage.allCases)
    func aForgottenSyncTokenMeansAFullComparisonAndNoDuplicates(_ kind: CalDAVTestServer.Kind, _ damage: TokenDamage) async throws {
        let list = try await SyncedList.started(on: kind)
        let server = list.server
        try await Self.addItems(list, "item", 1...5)
        try await list.syncNow()

        // Changes on both sides, then the token is gone.
        try list.phoneEdit("item 1", "todo['summary'] = 'item 1 from the phone'")
        try list.phoneDelete("item 2")
        _ = try server.phone("calendar.save_todo(summary='added on the phone')")
        try await list.todo("edit", "3", "item 3 from the list")
        try await list.todo("add", "added here")
        switch damage {
        case .deleted: try await list.changeState("DELETE FROM meta WHERE key = 'token'")
        case .bogus: try await list.changeState("UPDATE meta SET value = 'http://bogus.example/sync/0' WHERE key = 'token'")
        }
        try await list.syncNow()

        let expected = ["added here", "added on the phone", "item 1 from the phone", "item 3 from the list", "item 4", "item 5"]
        #expect(try await list.listTodos().map(\.summary).sorted() == expected)
        #expect(try list.serverTodos().map(\.summary).sorted() == expected)
        #expect(try await list.disagreements() == [])
        // And the token taken now works.
        try list.phoneEdit("item 4", "todo['summary'] = 'item 4 from the phone'")
        try await list.syncNow()
        #expect(try await list.id(of: "item 4 from the phone") != "")
        #expect(try await list.disagreements() == [])
    }

    @Test(arguments: servers)
    func aResourceThatCannotBeReadIsSkippedNamedAndLeftOnTheServer(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        let server = list.server
        try await list.todo("add", "call mum")
        try await list.syncNow()

        // What both servers take but is no to-do (an event in the task
        // list); Xandikos also takes a VTODO without a UID.
        var broken = ["an-event.ics": "BEGIN:VEVENT\\r\\nUID:event@phone.example\\r\\nDTSTAMP:20261127T090000Z\\r\\nDTSTART:20261201T090000Z\\r\\nSUMMARY:an event\\r\\nEND:VEVENT"]
        if kind == .xandikos {
            broken["no-uid.ics"] = "BEGIN:VTODO\\r\\nDTSTAMP:20261127T090000Z\\r\\nSUMMARY:no uid\\r\\nEND:VTODO"
        }
        for (name, component) in broken {
            _ = try server.phone(
                """
                response = client.put(CALDAV_URL + '\(name)', 'BEGIN:VCALENDAR\\r\\nVERSION:2.0\\r\\nPRODID:-//Example//Broken//EN\\r\\n\(component)\\r\\nEND:VCALENDAR\\r\\n', {'Content-Type': 'text/calendar; charset=utf-8'})
                if response.status not in (200, 201, 204): sys.exit('PUT answered %d' % response.status)
                """)
        }
        _ = try server.phone("calendar.save_todo(summary='from the phone')")
        try await list.todo("edit", "1", "call mum and dad")
        try await list.syncNow()

        var status = try await list.status()
        let unreadable = try #require(status["unreadable"] as? [String: String], "\(status)")
        #expect(Set(unreadable.keys.compactMap { $0.split(separator: "/").last.map(String.init) }) == Set(broken.keys), "\(unreadable)")
        #expect(unreadable.values.allSatisfy { !$0.isEmpty }, "\(unreadable)")
        #expect(status["error"] == nil || status["error"] is NSNull, "\(status)")
        #expect(try await list.listTodos().map(\.summary).sorted() == ["call mum and dad", "from the phone"])
        #expect(try list.serverTodos().map(\.summary).contains("call mum and dad"))
        for name in broken.keys {
            let still = try server.phone("print(client.request(CALDAV_URL + '\(name)').status)")
            #expect(still.trimmingCharacters(in: .whitespacesAndNewlines) == "200", "\(name) is no longer on the server")
        }

        // Still skipped next time; once gone from the server, no longer named.
        try await list.syncNow()
        #expect((try await list.status()["unreadable"] as? [String: String])?.count == broken.count)
        for name in broken.keys { _ = try server.phone("client.delete(CALDAV_URL + '\(name)')") }
        try await list.syncNow()
        status = try await list.status()
        #expect((status["unreadable"] as? [String: String])?.isEmpty == true, "\(status)")
        #expect(try await list.listTodos().count == 2)
        #expect(try await list.disagreements() == [])
    }

    @Test func aWrongPasswordIsSaidAndLosesNothingHere() async throws {
        let server = try CalDAVTestServer.radicale()
        defer { server.stop() }
        let list = try SyncedList(server: server)
        try await list.start()
        try await Self.addItems(list, "item", 1...3)
        try await list.syncNow()

        let right = try String(contentsOfFile: list.passwordFile, encoding: .utf8)
        try Data("not-the-password\n".utf8).write(to: URL(fileURLWithPath: list.passwordFile))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: list.passwordFile)
        try await list.todo("edit", "1", "item 1 edited offline")
        try await list.todo("add", "item 4")
        let said = try await list.syncNowFailing()
        let status = try await list.status()
        let error = status["error"] as? String ?? ""
        #expect(error.contains("refused the user name or password"), "\(error)\n\(said)")
        #expect(status["pending"] as? Int == 2, "\(status)")
        #expect(try await list.listTodos().map(\.summary).sorted() == ["item 1 edited offline", "item 2", "item 3", "item 4"])

        try Data(right.utf8).write(to: URL(fileURLWithPath: list.passwordFile))
        try await list.syncNow()
        #expect(try list.serverTodos().count == 4)
        #expect(try await list.disagreements() == [])
    }

    /// The collection deleted on the server is an error, not a deletion of
    /// everything; nor is it when the collection is made again, empty (an
    /// empty listing never deletes here). Set up afresh, the sync puts
    /// everything back.
    @Test(arguments: servers)
    func aDeletedOrEmptiedCollectionDeletesNothingHere(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        let server = list.server
        try await Self.addItems(list, "item", 1...3)
        try await list.syncNow()

        _ = try server.phone("calendar.delete()")
        var said = try await list.syncNowFailing()
        var error = try await list.status()["error"] as? String ?? ""
        #expect(error.contains("does not exist"), "\(error)\n\(said)")
        #expect(try await list.listTodos().count == 3)

        // Made again, empty: the sync token is unknown, the listing empty.
        _ = try server.phone(
            """
            body = ('<?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
                    '<D:set><D:prop><C:supported-calendar-component-set><C:comp name="VTODO"/></C:supported-calendar-component-set>'
                    '</D:prop></D:set></C:mkcalendar>')
            response = client.request(CALDAV_URL, 'MKCALENDAR', body, {'Content-Type': 'application/xml; charset=utf-8'})
            if response.status != 201: sys.exit('MKCALENDAR answered %d' % response.status)
            """)
        said = try await list.syncNowFailing()
        error = try await list.status()["error"] as? String ?? ""
        #expect(error.contains("lists no to-dos"), "\(error)\n\(said)")
        #expect(try await list.listTodos().count == 3)
        #expect(try list.serverTodos().isEmpty)

        // The state forgotten (as `sync rm` and `sync add` do): all goes back.
        for suffix in ["", "-wal", "-shm"] { unlink(list.stateFile + suffix) }
        try await list.syncNow()
        #expect(try list.serverTodos().count == 3)
        #expect(try await list.disagreements() == [])
    }
}
}
