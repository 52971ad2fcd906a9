import CalDAVServerSupport
import Foundation
import TestSupport
import Testing

/// What was agreed with the server is a base for one collection and one
/// list only. One user's second todod (another socket and data directory)
/// syncing a second collection, a switch of collection, and a list started
/// on another database each start from no base: the sync compares by UID,
/// and never deletes on the server what the list did not delete.
extension SyncEndToEndTests {
@Suite struct SyncPairingEndToEndTests {
    static let servers = SyncBasicsEndToEndTests.servers

    /// The sequence a new user ran from docs/sync.md: the default todod
    /// syncs Work; a second todod, by hand, with its own socket and data
    /// directory, adds "home item one" and its own sync of Home. Before,
    /// the second `sync add` overwrote the first's settings, and the first
    /// list was synced against Home with the second's agreed versions:
    /// "home item one" was deleted from Home and "work item one" copied in.
    @Test(arguments: servers)
    func aSecondTododsSyncKeepsToItsOwnCollection(_ kind: CalDAVTestServer.Kind) async throws {
        let server = try SyncBasicsEndToEndTests.server(kind)
        defer { server.stop() }
        let workURL = server.collectionURL
        let homeURL = try server.makeCollection(named: "home")
        let work = try SyncedList(server: server, asDefaultSocket: true)
        try await work.daemon.start()
        try await work.todo("add", "work item one")
        let addedWork = try await work.sync(try work.addArguments())
        #expect(addedWork.status == 0, "\(addedWork)")

        let home = try SyncedList(server: server, collectionURL: homeURL, home: work.home)
        try await home.daemon.start()
        try await home.todo("add", "home item one")
        let addedHome = try await home.sync(try home.addArguments())
        #expect(addedHome.status == 0, "\(addedHome)")
        for list in [work, home, work, home] { try await list.syncNow() }

        #expect(try server.todos(in: workURL).values.sorted() == ["work item one"])
        #expect(try server.todos(in: homeURL).values.sorted() == ["home item one"])
        #expect(try await work.listTodos().map(\.summary) == ["work item one"])
        #expect(try await home.listTodos().map(\.summary) == ["home item one"])
        // Each todod's settings are its own: the default one's still name Work.
        let defaultSettings = try String(contentsOfFile: work.home.appendingPathComponent("config/todod/sync.conf").path, encoding: .utf8)
        #expect(defaultSettings.contains("url = \(workURL)"), "\(defaultSettings)")
        #expect((try await home.status())["collection"] as? String == homeURL)
        #expect((try await work.status())["service"] as? String == "todod-sync.service")
        #expect((try await home.status())["service"] as? String != "todod-sync.service")
        // What each prints is for the person, not log lines.
        #expect(!addedHome.stdout.contains("[TodoSyncService]") && !addedHome.stderr.contains("[TodoSyncService]"), "\(addedHome)")
    }

    /// A second `sync add` while one is set up changes nothing and says how
    /// to switch; `--replace` switches from no base, so the new collection
    /// and the list each get what the other holds, and nothing is deleted
    /// on either side or in the collection left.
    @Test(arguments: servers)
    func aSecondAddIsRefusedAndReplaceSwitchesWithoutDeleting(_ kind: CalDAVTestServer.Kind) async throws {
        let server = try SyncBasicsEndToEndTests.server(kind)
        defer { server.stop() }
        let homeURL = try server.makeCollection(named: "home")
        _ = try server.phone("calendar.save_todo(summary='already at home')", collection: homeURL)
        let list = try SyncedList(server: server)
        try await list.start()
        try await list.todo("add", "work item one")
        try await list.syncNow()

        let refused = try await list.sync(try list.addArguments(collectionURL: homeURL))
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.contains("already syncs with \(server.collectionURL)") && refused.stderr.contains("--replace"), "\(refused)")
        #expect(!refused.stderr.contains("Usage:"), "\(refused)")
        try await list.syncNow()
        #expect(try server.todos(in: homeURL).values.sorted() == ["already at home"])
        #expect((try await list.status())["collection"] as? String == server.collectionURL)

        let replaced = try await list.sync(try list.addArguments(collectionURL: homeURL) + ["--replace"])
        #expect(replaced.status == 0, "\(replaced)")
        try await list.syncNow()
        #expect(try server.todos(in: homeURL).values.sorted() == ["already at home", "work item one"])
        #expect(try server.todos().values.sorted() == ["work item one"])
        #expect(try await list.listTodos().map(\.summary).sorted() == ["already at home", "work item one"])
    }

    /// todod started on an empty data directory (the data moved, a new
    /// install, another --data-dir) at the same socket: another list, so
    /// the agreed versions are no base. Nothing is deleted on the server,
    /// and the to-dos come back into the list.
    @Test(arguments: servers)
    func aListOnAnotherDatabaseDeletesNothingOnTheServer(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        defer { list.server.stop() }
        for title in ["buy milk", "call mum", "water plants"] { try await list.todo("add", title) }
        try await list.syncNow()
        _ = try list.server.phone("calendar.save_todo(summary='from the phone')")
        try await list.syncNow()
        #expect(try list.server.todos().count == 4)

        _ = try await list.daemon.terminate()
        try FileManager.default.moveItem(atPath: list.daemon.dataDirectory, toPath: list.daemon.dataDirectory + "-moved")
        try await list.daemon.start()
        #expect(try await list.listTodos().isEmpty)
        try await list.syncNow()

        #expect(try list.server.todos().values.sorted() == ["buy milk", "call mum", "from the phone", "water plants"])
        #expect(try await list.listTodos().map(\.summary).sorted() == ["buy milk", "call mum", "from the phone", "water plants"])
    }
}
}
