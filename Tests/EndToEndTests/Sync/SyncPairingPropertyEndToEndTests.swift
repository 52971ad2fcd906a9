import CalDAVServerSupport
import Foundation
import TestSupport
import Testing

/// A seeded property over the sync's decisions, with the real programs:
/// one user's two todods and two collections on one Xandikos, and a random
/// sequence of set-ups, switches (`--replace`, `rm` then `add`), lists
/// started on a new database, edits in either list and to-dos added by a
/// phone, each followed by syncs. After every step:
/// - no to-do a collection ever held is gone from it unless a person
///   deleted that UID somewhere;
/// - no to-do a list held is gone from it unless a person deleted it, or
///   the list was started on a new database (and then it comes back from
///   its collection).
/// The seed is in the test's arguments; a failure names the step.
extension SyncEndToEndTests {
@Suite struct SyncPairingPropertyEndToEndTests {
    enum Step: CaseIterable {
        case add, delete, phoneAdd, replace, removeAndAdd, newDatabase
    }

    @Test(arguments: [1 as UInt64, 2])
    func noSequenceOfSetUpsSwitchesAndEditsDeletesWhatNobodyDeleted(_ seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let server = try CalDAVTestServer.xandikos()
        defer { server.stop() }
        let collections = [server.collectionURL, try server.makeCollection(named: "home")]
        let first = try SyncedList(server: server, asDefaultSocket: true)
        let second = try SyncedList(server: server, collectionURL: collections[1], home: first.home)
        let lists = [first, second]
        var paired: [Int?] = [nil, nil]  // each list's collection, by index
        var deleted: Set<String> = []  // UIDs a person deleted, anywhere
        var seenOnServer: [Set<String>] = [[], []]
        var seenInList: [Set<String>] = [[], []]
        var counter = 0

        for list in lists { try await list.daemon.start() }
        for (index, list) in lists.enumerated() {
            try await list.todo("add", "list \(index) item 0")
            let added = try await list.sync(try list.addArguments(collectionURL: collections[index]))
            try #require(added.status == 0, "\(added)")
            paired[index] = index
        }

        for number in 1...8 {
            let step = Step.allCases.randomElement(using: &random)!
            let index = Int.random(in: 0...1, using: &random)
            let list = lists[index]
            counter += 1
            var said = "step \(number) (seed \(seed)): \(step) on list \(index)"
            switch step {
            case .add:
                try await list.todo("add", "list \(index) item \(counter)")
            case .delete:
                if let victim = try await list.listTodos().randomElement(using: &random) {
                    deleted.insert(victim.uid)
                    try await list.todo("rm", try await list.id(of: victim.summary, done: victim.done))
                    said += " (\(victim.summary))"
                }
            case .phoneAdd:
                let collection = Int.random(in: 0...1, using: &random)
                _ = try server.phone("calendar.save_todo(summary='phone item \(counter)')", collection: collections[collection])
                said += " (into collection \(collection))"
            case .replace:
                let target = Int.random(in: 0...1, using: &random)
                let result = try await list.sync(try list.addArguments(collectionURL: collections[target]) + ["--replace"])
                try #require(result.status == 0, "\(said): \(result)")
                paired[index] = target
                said += " (to collection \(target))"
            case .removeAndAdd:
                let target = Int.random(in: 0...1, using: &random)
                try #require(try await list.sync(["rm"]).status == 0)
                let result = try await list.sync(try list.addArguments(collectionURL: collections[target]))
                try #require(result.status == 0, "\(said): \(result)")
                paired[index] = target
                said += " (to collection \(target))"
            case .newDatabase:
                _ = try await list.daemon.terminate()
                try FileManager.default.moveItem(
                    atPath: list.daemon.dataDirectory, toPath: list.daemon.dataDirectory + "-\(number)")
                try await list.daemon.start()
                seenInList[index] = []
            }
            for synced in [first, second, first, second] { try await synced.syncNow() }

            for collection in 0...1 {
                let now = Set(try server.todos(in: collections[collection]).keys)
                let lost = seenOnServer[collection].subtracting(now).subtracting(deleted)
                #expect(lost.isEmpty, "\(said): collection \(collection) lost \(lost) that nobody deleted")
                seenOnServer[collection].formUnion(now)
            }
            for (position, synced) in lists.enumerated() {
                let now = Set(try await synced.listTodos().map(\.uid))
                let lost = seenInList[position].subtracting(now).subtracting(deleted)
                #expect(lost.isEmpty, "\(said): list \(position) lost \(lost) that nobody deleted")
                seenInList[position].formUnion(now)
                // What the list holds is on its collection after the syncs.
                if let collection = paired[position] {
                    let missing = now.subtracting(try server.todos(in: collections[collection]).keys)
                    #expect(missing.isEmpty, "\(said): list \(position)'s \(missing) not on collection \(collection)")
                }
            }
        }
    }
}
}
