import TodoStoreInterface

/// How a batch taken from the state (`OwnerState.takeBatch`) went, as the
/// committer that stored it says: what it hands back to the state
/// (`OwnerState.finishCommit`). The committer decides nothing the state
/// decides; it only reports what the store said.
public enum CommitOutcome: Sendable {
    /// A list of its own: the first `stored` writes are stored and durable;
    /// if fewer than all, `failure` says why the next one was not (the rest
    /// were not tried).
    case written(stored: Int, failure: BatchWriteError?)
    /// A list of its own: the sync failed, so whether anything since the
    /// last good sync is on disk is unknown, and nothing more may be acknowledged.
    case syncFailed(any Error)
    /// A shared list: the store took the whole batch.
    case committed
    /// A shared list: another instance committed first, up to `head`; the
    /// batch waits, to be planned again on what that one stored.
    case conflict(head: Int)
    /// A shared list: the store did not answer, or refused. The batch waits;
    /// whether it was stored all the same, the change log says once the
    /// store is back.
    case notStored(any Error)
}
