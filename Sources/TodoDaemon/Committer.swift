import TodoOwner

/// Makes the owner's transactions durable: one batch at a time, taken from
/// the state (`OwnerState.takeBatch`) at the end of a turn, its outcome
/// handed back in a turn on the owner's loop. Two kinds: a list of its own
/// in SQLite (`SQLiteCommitter`, group commit on the writer's thread), and
/// a list several instances share in PostgreSQL (`SharedListCommitter`).
protocol Committer: Sendable {
    /// At the end of every turn, on the owner's loop: commits what waits,
    /// unless a commit is under way.
    func turnEnded(_ owner: ListOwner)

    /// Starts what runs in the background: for a shared list, watching the
    /// other instances' commits.
    func start(_ owner: ListOwner)

    /// Stops it (the daemon is stopping).
    func close()
}
