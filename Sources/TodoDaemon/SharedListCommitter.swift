import NIOCore
import TodoOwner
import TodoSharedStore
import TodoStoreInterface
import TodoViewModels

/// A list several instances share: the batch goes to the store as one
/// commit planned on `base`, which the store takes only if no other
/// instance committed since (under the head lock, nobody can have).
struct SharedListCommitter: Committer {
    let store: any SharedListStore

    func commit(
        _ batch: ArraySlice<PendingTransaction>, plannedOn base: Int, on loop: any EventLoop,
        done: @escaping @Sendable (CommitOutcome) -> Void
    ) {
        let instance = store.instance
        let stored = batch.map { transaction in
            StoredTransaction(
                revision: transaction.revision, instance: instance, cause: transaction.cause.map(OwnerState.json),
                write: transaction.write ?? ListWrite())
        }
        store.commit(stored, after: base, on: loop).whenComplete { result in
            switch result {
            case .success(.committed): done(.committed)
            case .success(.conflict(let head)): done(.conflict(head: head))
            case .failure(let error): done(.notStored(error))
            }
        }
    }
}
