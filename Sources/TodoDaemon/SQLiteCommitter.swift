import NIOCore
import TodoOwner
import TodoStoreInterface

/// A list of its own: each batch is stored and synced once on the writer's
/// thread, and whatever arrives meanwhile goes in the next batch, so one
/// sync covers as many edits as arrived during the last (group commit).
struct SQLiteCommitter: Committer {
    let writer: StoreWriter
    let store: any LocalListStore

    func commit(
        _ batch: ArraySlice<PendingTransaction>, plannedOn base: Int, on loop: any EventLoop,
        done: @escaping @Sendable (CommitOutcome) -> Void
    ) {
        writer.write(batch.compactMap(\.write), to: store, on: loop, done: done)
    }
}
