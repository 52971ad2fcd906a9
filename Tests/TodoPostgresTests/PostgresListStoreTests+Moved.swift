import Foundation
import Synchronization
import Testing
import TodoModel
import TodoStoreInterface
import TodoViewModels

@testable import TodoPostgres

/// A list that moved under an open store: copied over (`replaceList`) or
/// restored. The store refuses to commit or read on top of it, and says how.
extension PostgresListStoreTests {
    @Test func aListCopiedOverAnOpenStoreRefusesItsCommitsAndReadsAsReplaced() throws {
        let (_, laptop, migrate) = try laptopAndDesktop(sharing: "moved")
        defer { [laptop, migrate].forEach { $0.close() } }
        #expect(try laptop.commit([Self.transaction(Self.add(1, "before"))], after: 0) == .committed(revision: 1))
        _ = try migrate.replaceList(with: ListSnapshot(items: []), force: true, whileRunning: true)

        #expect {
            try laptop.commit([Self.transaction(Self.add(2, "planned on the old list"))], after: 1)
        } throws: { ($0 as? SharedListMoved).map { "\($0)".contains("replaced") } ?? false }
        #expect(throws: SharedListMoved.self) { try laptop.transactions(after: 1, limit: 10) }
        #expect(try migrate.loadShared().snapshot.items.isEmpty, "nothing planned on the old list was stored")
    }

    @Test func aRestoredListGetsANewEpochAndANextIDAboveWhatTheInstanceGave() throws {
        let store = try store(try cluster.createDatabase("renewed"))
        defer { store.close() }
        let before = try store.loadShared()
        try store.startNewHistory(replacing: before.epoch, nextID: 9)
        let after = try store.loadShared()
        #expect(after.epoch != before.epoch)
        #expect(after.snapshot.nextID == TodoID(9))
        // Another instance noticing the same restore finds the epoch renewed, and leaves it.
        try store.startNewHistory(replacing: before.epoch, nextID: 20)
        #expect(try store.loadShared().epoch == after.epoch)
    }

    @Test func aForcedCopyIsRefusedWhileAnInstanceWatchesAndWithWhileRunningItIsTold() async throws {
        let (database, laptop, migrate) = try laptopAndDesktop(sharing: "running")
        defer { [laptop, migrate].forEach { $0.close() } }
        let heard = Mutex<[Int?]>([])
        laptop.watch { revision in heard.withLock { $0.append(revision) } }
        // The instance lock is taken before LISTEN: once the listener listens, it is held.
        #expect(try await waitUntilListening(in: database))
        let revision = 1
        #expect(try migrate.commit([Self.transaction(Self.add(1, "item 1"))], after: 0) == .committed(revision: revision))
        #expect {
            try migrate.replaceList(with: ListSnapshot(), force: true)
        } throws: { ($0 as? PostgresListStore.InstancesRunning)?.instances == ["todod from local socket"] }
        #expect(try migrate.loadShared().revision == revision, "nothing was replaced")

        #expect(try migrate.replaceList(with: ListSnapshot(), force: true, whileRunning: true) == 0)
        for _ in 1...100 where !heard.withLock({ $0.contains(nil) }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(heard.withLock { $0.contains(nil) }, "the instance is told to read the list again")
    }
}
