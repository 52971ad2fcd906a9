import NIOCore
import TodoOwner

/// Stores one batch the state handed out (`OwnerState.takeBatch`) and says
/// how it went (`CommitOutcome`), which the owner hands back to the state
/// (`ListOwner.commitWaiting`). A committer takes a batch and returns an
/// outcome: it holds no state of the list's and decides nothing the state
/// decides. Two kinds: a list of its own in SQLite (`SQLiteCommitter`,
/// stored and synced on the writer's thread), and a list several instances
/// share in PostgreSQL (`SharedListCommitter`), for which when to commit,
/// and under the head lock or not, is the follower's to say
/// (`SharedListFollower`).
protocol Committer: Sendable {
    /// Stores `batch`, planned on revision `base`, and calls `done` on
    /// `loop` with how it went. The batch is read before this returns.
    func commit(
        _ batch: ArraySlice<PendingTransaction>, plannedOn base: Int, on loop: any EventLoop,
        done: @escaping @Sendable (CommitOutcome) -> Void)
}
