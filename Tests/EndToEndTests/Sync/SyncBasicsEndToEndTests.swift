import CalDAVServerSupport
import Foundation
import Testing

/// The list and a real CalDAV server kept in step by the real todod-sync,
/// with python3-caldav editing the same collection as a phone would: what
/// either side adds, edits or deletes reaches the other, and afterwards the
/// collection and `todoctl export` agree on every to-do and field.
extension SyncEndToEndTests {
@Suite struct SyncBasicsEndToEndTests {
    static let servers: [CalDAVTestServer.Kind] = [.radicale, .xandikos]

    static func server(_ kind: CalDAVTestServer.Kind) throws -> CalDAVTestServer {
        // Radicale over TLS with a CA of the test's own: the CA file path a
        // user gives with --ca-file.
        kind == .radicale ? try .radicale(tls: true) : try .xandikos()
    }

    @Test(arguments: servers)
    func editsOnEitherSideReachTheOtherAndBothAgree(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        let server = list.server
        _ = try await list.todoctl("add", "buy milk +errands pri:H due:2026-12-24")
        _ = try await list.todoctl("add", "call mum")
        _ = try await list.todoctl("note", "2", "ask about Sunday")
        try await list.syncNow()
        let onServer = try server.phone("print(sorted(str(t.icalendar_component['summary']) for t in calendar.todos()))")
        #expect(onServer.contains("'buy milk'") && onServer.contains("'call mum'"), "\(onServer)")

        _ = try server.phone(
            """
            calendar.save_todo('BEGIN:VCALENDAR\\r\\nVERSION:2.0\\r\\nPRODID:-//Example//Phone Tasks//EN\\r\\nBEGIN:VTODO\\r\\n'
                'UID:phone-1@example.com\\r\\nDTSTAMP:20261127T090000Z\\r\\nSUMMARY:from the phone\\r\\nPRIORITY:1\\r\\n'
                'CATEGORIES:Shopping\\r\\nEND:VTODO\\r\\nEND:VCALENDAR\\r\\n')
            for todo in calendar.todos():
                if str(todo.icalendar_component['summary']) == 'call mum':
                    todo.icalendar_component['summary'] = 'call mum and dad'
                    todo.save()
            """)
        try await list.syncNow()
        let listed = try await list.todoctl("ls")
        #expect(listed.stdout.contains("from the phone"), "\(listed.stdout)")
        #expect(listed.stdout.contains("call mum and dad"), "\(listed.stdout)")

        #expect(try await list.convergence().list.count == 3)
        #expect(try await list.disagreements() == [])
        let status = try await list.status()
        #expect(status["pending"] as? Int == 0)
        #expect(status["synced"] as? Int == 3)
        #expect((status["conflicts"] as? [Any])?.isEmpty == true)
    }

    @Test(arguments: servers)
    func deletionsGoBothWaysAndTakeNothingElse(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        let server = list.server
        _ = try await list.todoctl("add", "plan the trip")
        _ = try await list.todoctl("add", "book flights parent:1")
        _ = try await list.todoctl("add", "renew passport parent:1")
        _ = try await list.todoctl("add", "water plants")
        try await list.syncNow()

        // The phone deletes the parent only: its subtasks stay, here too.
        _ = try server.phone(
            """
            for todo in calendar.todos():
                if str(todo.icalendar_component['summary']) == 'plan the trip': todo.delete()
            """)
        try await list.syncNow()
        let listed = try await list.todoctl("ls")
        #expect(!listed.stdout.contains("plan the trip"), "\(listed.stdout)")
        #expect(listed.stdout.contains("book flights") && listed.stdout.contains("renew passport"), "\(listed.stdout)")

        // Deleted here: gone from the server.
        _ = try await list.todoctl("rm", "4")
        try await list.syncNow()
        let onServer = try server.phone("print(sorted(str(t.icalendar_component['summary']) for t in calendar.todos()))")
        #expect(!onServer.contains("water plants"), "\(onServer)")
        #expect(try await list.convergence().list.count == 2)
        #expect(try await list.disagreements() == [])
    }

    /// A change here reaches the server at once with the service running,
    /// and one on the server comes in as a transaction every watcher sees
    /// with `cause.origin` "sync"; undo takes it back, and the undo goes to
    /// the server too.
    ///
    /// The service looks at the server once a day here, so an edit that
    /// arrives within the test's timeout was sent because it was made, not
    /// found by a periodic round. (How fast it arrives is a speed figure,
    /// for `scripts/bench sync`, not for a test on a busy machine.)
    @Test func theServiceSendsAnEditAtOnceAndUndoTakesASyncedChangeBack() async throws {
        let server = try CalDAVTestServer.radicale()
        defer { server.stop() }
        let list = try SyncedList(server: server)
        try await list.daemon.start()
        let added = try await list.sync(try list.addArguments() + ["--interval", "86400"])
        #expect(added.status == 0, "\(added.stdout) \(added.stderr)")
        let service = try ChildProcess(
            Binaries.todoSync, ["run", "--socket", list.daemon.socket],
            environment: ProcessInfo.processInfo.environment.merging(list.environment) { $1 }, stdout: OutputCollector(),
            stderr: OutputCollector())
        defer { service.signal(SIGTERM) }
        let started = ContinuousClock.now
        _ = try await list.todoctl("add", "sent at once")
        var arrived: Duration?
        while ContinuousClock.now - started < .seconds(60) {
            let titles = try server.phone("print([str(t.icalendar_component['summary']) for t in calendar.todos()])")
            if titles.contains("sent at once") {
                arrived = ContinuousClock.now - started
                break
            }
            // The phone blocks its thread: let the other tests run between looks.
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(arrived != nil, "the edit did not reach the server within 60 s")

        // An edit that adds and removes nothing goes out as fast.
        let edited = ContinuousClock.now
        _ = try await list.todoctl("edit", "1", "sent at once, and edited")
        var editArrived: Duration?
        while ContinuousClock.now - edited < .seconds(60), editArrived == nil {
            let titles = try server.phone("print([str(t.icalendar_component['summary']) for t in calendar.todos()])")
            if titles.contains("sent at once, and edited") { editArrived = ContinuousClock.now - edited }
            if editArrived == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(editArrived != nil, "the edit did not reach the server within 60 s")

        let watcher = OutputCollector()
        let watch = try ChildProcess(
            Binaries.todoctl, ["--socket", list.daemon.socket, "watch", "--events"], environment: ProcessInfo.processInfo.environment,
            stdout: watcher, stderr: OutputCollector())
        defer { watch.signal(SIGTERM) }
        while !watcher.text.contains("server.hello") { try await Task.sleep(for: .milliseconds(20)) }
        _ = try server.phone("calendar.save_todo(summary='from the phone')")
        _ = try await list.sync(["now"])
        var sawSync = false
        for _ in 0..<500 where !sawSync {
            sawSync = watcher.text.contains("\"origin\":\"sync\"") && watcher.text.contains("from the phone")
            if !sawSync { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(sawSync, "\(watcher.text)")

        let undone = try await list.todoctl("undo")
        #expect(undone.stdout.contains("sync"), "\(undone.stdout)")
        var goneThere = false
        for _ in 0..<300 where !goneThere {
            goneThere = !(try server.phone("print([str(t.icalendar_component['summary']) for t in calendar.todos()])")).contains("from the phone")
            if !goneThere { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(goneThere)
    }
}
}
