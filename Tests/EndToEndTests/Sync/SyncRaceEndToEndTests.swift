import CalDAVServerSupport
import Foundation
import Logging
import TestSupport
import Testing
import TodoClient

@testable import TodoSyncService

/// An edit made here while the server's change is on its way in: just
/// before todod applies it, or just after. The sync's rounds run in this
/// process against the real todod and server, and the edit is made by the
/// real todoctl at a hook in the apply (`LocalList.aroundApply`), so the
/// moment is exact and nothing races a timer. Before, the base was read
/// from an export after the apply: an edit before it was overwritten by
/// the server's version, one after it was taken for agreed and never sent.
extension SyncEndToEndTests {
@Suite struct SyncRaceEndToEndTests {
    static let servers = SyncBasicsEndToEndTests.servers

    /// One round of `list`'s sync in this process, with `aroundApply` at
    /// each apply; what the service's own round would do.
    static func round(
        _ list: SyncedList, mayFail: Bool = false, aroundApply: @escaping @Sendable (LocalList.ApplyMoment) async throws -> Void
    ) async throws {
        let paths = SyncPaths.standard(environment: list.environment, socketPath: list.daemon.socket)
        let settings = try #require(try paths.settings())
        let service = try SyncService(paths: paths, settings: settings, password: try paths.password(), logger: Logger(label: "test-sync"))
        try await TodoConnection.with(socketPath: list.daemon.socket) { daemon in
            let succeeded = try await service.sync(LocalList(daemon: daemon, aroundApply: aroundApply), pollServer: true)
            if !succeeded, !mayFail { throw TestFailure("the round failed: \(try await list.status())") }
        }
        await service.close()
    }

    /// Calls `action` the first time `moment` comes, and never again.
    final class Once: @unchecked Sendable {
        private let lock = NSLock()
        private var done = false
        func take() -> Bool {
            lock.withLock {
                defer { done = true }
                return !done
            }
        }
    }

    /// What a hook deleted, read once the round is over.
    final class Deleted: @unchecked Sendable {
        private let lock = NSLock()
        private var added: Set<String> = []
        func add(_ title: String) { lock.withLock { _ = added.insert(title) } }
        var titles: Set<String> { lock.withLock { added } }
    }

    static func at(_ moment: LocalList.ApplyMoment, once action: @escaping @Sendable () async throws -> Void)
        -> @Sendable (LocalList.ApplyMoment) async throws -> Void
    {
        let once = Once()
        return { now in if now == moment, once.take() { try await action() } }
    }

    /// The phone retitles X; just before todod applies it, `todoctl modify
    /// X +urgent pri:H`. The apply leaves X out (it changed since it was
    /// read), the next round merges: both sides end with the phone's title,
    /// the tag and the priority, with no conflict.
    @Test(arguments: servers)
    func anEditJustBeforeTheApplyIsMergedNotOverwritten(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        defer { list.server.stop() }
        try await list.todo("add", "X")
        try await list.syncNow()
        let id = try await list.id(of: "X")
        try list.phoneEdit("X", "todo['summary'] = 'X from the phone'")
        try await Self.round(list, aroundApply: Self.at(.before) { try await list.todo("modify", id, "+urgent", "pri:H") })
        try await list.syncNow()
        try await list.syncNow()

        let here = try await list.listTodo("X from the phone")
        #expect(here.text.contains("CATEGORIES:urgent") && here.text.contains("PRIORITY:1"), "\(here.text)")
        let there = try #require(try list.serverTodos().first { $0.summary == "X from the phone" })
        #expect(there.text.contains("CATEGORIES:urgent") && there.text.contains("PRIORITY:1"), "\(there.text)")
        let status = try await list.status()
        #expect((status["pending"] as? Int) == 0 && (status["conflicts"] as? [Any])?.isEmpty == true, "\(status)")
        #expect(try await list.disagreements().isEmpty)
    }

    /// The phone retitles X; just after todod applies it, a tag is added
    /// here, and the sync's own change is undone. What was agreed is what
    /// the apply made, so both later edits are pending and go out: the
    /// server ends as the list is (the undo and the tag), not the other way.
    @Test(arguments: servers)
    func editsJustAfterTheApplyGoOut(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        defer { list.server.stop() }
        try await list.todo("add", "X")
        try await list.todo("add", "Y")
        try await list.syncNow()
        let x = try await list.id(of: "X")
        try list.phoneEdit("X", "todo['summary'] = 'X from the phone'")
        try list.phoneEdit("Y", "todo['summary'] = 'Y from the phone'")
        try await Self.round(
            list,
            aroundApply: Self.at(.after) {
                try await list.todo("undo")
                try await list.todo("modify", x, "+late")
            })
        try await list.syncNow()
        try await list.syncNow()

        #expect(try await list.listTodos().map(\.summary).sorted() == ["X", "Y"])
        #expect(try list.server.todos().values.sorted() == ["X", "Y"])
        #expect(try await list.listTodo("X").text.contains("CATEGORIES:late"))
        #expect(try list.serverTodos().first { $0.summary == "X" }?.text.contains("CATEGORIES:late") == true)
        #expect(try await list.disagreements().isEmpty)
    }

    /// Seeded: rounds whose applies meet local edits and deletions at
    /// random moments, with phone edits, additions and deletions between
    /// them, and the accidents: the sync dying just before or just after
    /// an apply, todod killed, the data directory restored from a backup
    /// or started empty. After two quiet rounds both sides are equal, no
    /// UID is there twice, and every to-do nobody deleted is on both.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func interleavedEditsAndAccidentsEndEqualAndLoseNothing(seed: UInt64) async throws {
        let list = try await SyncedList.started(on: .xandikos)
        defer { list.server.stop() }
        var random = SeededRandom(seed: seed)
        for number in 1...4 { try await list.todo("add", "item \(number)") }
        try await list.syncNow()
        let backup = list.daemon.dataDirectory + "-backup"
        _ = try await list.daemon.terminate()
        try FileManager.default.copyItem(atPath: list.daemon.dataDirectory, toPath: backup)
        try await list.daemon.start()
        var deleted: Set<String> = []
        var made = 4
        var accidents: [String] = []
        // Each accident once per seed, at steps the seed orders; the sync
        // dies at an apply where the seed picks it.
        let schedule = Dictionary(uniqueKeysWithValues: zip([1, 3, 5], [0, 1, 2].shuffled(using: &random)))
        for step in 0..<8 {
            // The phone: retitle, reprioritise or delete one to-do, or add one.
            let titles = try list.server.todos().values.sorted()
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where !titles.isEmpty:
                let title = titles.randomElement(using: &random)!
                try list.phoneEdit(title, "todo['summary'] = \(SyncedList.pythonString(title + " p\(step)"))")
            case 1 where titles.count > 2:
                let title = titles.randomElement(using: &random)!
                try list.phoneDelete(title)
                deleted.insert(title)
            case 2 where !titles.isEmpty:
                try list.phoneEdit(titles.randomElement(using: &random)!, "todo['priority'] = 1")
            default:
                made += 1
                _ = try list.server.phone("calendar.save_todo(summary='item \(made)')")
            }
            // An accident between rounds, now and then.
            switch schedule[step] {
            case 0:
                accidents.append("step \(step): todod killed")
                try await list.daemon.kill()
                try await list.daemon.start()
            case 1:
                accidents.append("step \(step): the backup restored")
                _ = try await list.daemon.terminate()
                try FileManager.default.removeItem(atPath: list.daemon.dataDirectory)
                try FileManager.default.copyItem(atPath: backup, toPath: list.daemon.dataDirectory)
                try await list.daemon.start()
            case 2:
                accidents.append("step \(step): started on an empty data directory")
                _ = try await list.daemon.terminate()
                try FileManager.default.removeItem(atPath: list.daemon.dataDirectory)
                try await list.daemon.start()
            default: break
            }
            // Here, at a random moment of the apply: a tag, a retitle, a
            // deletion (a person's, so counted as deleted), the sync dying
            // there, or nothing.
            let moment: LocalList.ApplyMoment = Bool.random(using: &random) ? .before : .after
            let choice = Int.random(in: 0..<5, using: &random)
            let stepNumber = step
            let deletedHere = Deleted()
            if choice == 3 { accidents.append("step \(step): the sync died \(moment) an apply") }
            try await Self.round(
                list, mayFail: choice == 3,
                aroundApply: Self.at(moment) {
                    let listed = try await list.listTodos().filter { !$0.done }
                    guard let target = listed.min(by: { $0.summary < $1.summary })?.summary else { return }
                    let id = try await list.id(of: target)
                    switch choice {
                    case 0: try await list.todo("modify", id, "+t\(stepNumber)")
                    case 1: try await list.todo("edit", id, target + " h\(stepNumber)")
                    case 2 where listed.count > 2:
                        try await list.todo("rm", id)
                        deletedHere.add(target)
                    case 3: throw TestFailure("the sync died here")
                    default: break
                    }
                })
            deleted.formUnion(deletedHere.titles)
        }
        try await list.syncNow()
        try await list.syncNow()

        let context: Comment = "seed \(seed); \(accidents)"
        #expect(try await list.disagreements().isEmpty, context)
        let here = try await list.listTodos()
        let there = try list.serverTodos()
        #expect(Set(here.map(\.uid)) == Set(there.map(\.uid)), context)
        #expect(Set(here.map(\.uid)).count == here.count && Set(there.map(\.uid)).count == there.count, "a UID twice, \(context)")
        // Every to-do made (here or on the phone) and deleted by nobody is still there.
        for number in 1...made {
            let base = "item \(number)"
            guard !deleted.contains(where: { $0.hasPrefix(base + " ") || $0 == base }) else { continue }
            #expect(here.contains { $0.summary == base || $0.summary.hasPrefix(base + " ") }, "\(base) lost, \(context): \(here)")
        }
        try? FileManager.default.removeItem(atPath: backup)
    }
}
}
