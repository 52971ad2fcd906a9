import TodoViewModels

// What a store several todod instances share keeps and answers (the store
// itself is `SharedListStore`, in TodoSharedStore: its calls run on an event loop).

/// The list at one revision of a shared store.
public struct SharedSnapshot: Sendable {
    public var snapshot: ListSnapshot
    public var epoch: String
    public var revision: Int

    public init(snapshot: ListSnapshot, epoch: String, revision: Int) {
        self.snapshot = snapshot
        self.epoch = epoch
        self.revision = revision
    }
}

/// One transaction as the shared store's change log keeps it.
public struct StoredTransaction: Sendable {
    public var revision: Int
    /// The instance that made it.
    public var instance: String
    /// Who made it, as the protocol's `cause` (JSON), or nil for the daemon's own.
    public var cause: String?
    public var write: ListWrite

    public init(revision: Int, instance: String, cause: String?, write: ListWrite) {
        self.revision = revision
        self.instance = instance
        self.cause = cause
        self.write = write
    }
}

/// How a commit to a shared store went.
public enum SharedCommit: Sendable, Equatable {
    /// Stored and durable; the list is now at `revision`.
    case committed(revision: Int)
    /// Another instance committed first: the list is at `revision`, and
    /// nothing of the batch was stored.
    case conflict(revision: Int)
}
