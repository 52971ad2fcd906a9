import TodoOwner
import TodoStoreInterface

/// A list of its own: each batch is stored and synced once on the writer's
/// thread, and whatever arrives meanwhile goes in the next batch, so one
/// sync covers as many edits as arrived during the last (group commit).
struct SQLiteCommitter: Committer {
    let writer: StoreWriter
    let store: any LocalListStore

    func turnEnded(_ owner: ListOwner) {
        guard let batch = owner.state.withValue({ $0.takeBatch() }) else { return }
        writer.write(batch.compactMap(\.write), to: store, on: owner.loop) { outcome in
            switch outcome {
            case .written(let stored, let failure):
                owner.state.withValue { $0.finishWrite(stored: stored, failure: failure) }
            case .syncFailed(let error):
                // The disk did not confirm the data: nothing since the last
                // good sync may be acknowledged or announced.
                owner.state.withValue { $0.syncFailed(error) }
                owner.syncFailed(error)
            }
            owner.finishTurn()
        }
    }

    func start(_ owner: ListOwner) {}

    func close() {}
}
