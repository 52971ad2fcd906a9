import TodoViewModels

/// A list only this instance writes: batches are stored as they come, with
/// no revision to commit on top of.
///
/// `write` stores a batch of transactions in one database transaction;
/// `synchronize` makes every write before it durable. They are separate so
/// that many batches can share one sync (group commit): the owner
/// acknowledges a transaction only after a `synchronize` that began after
/// its `write` returned.
public protocol LocalListStore: ListStore {
    /// Stores `batch` in one transaction, a savepoint per write; see `BatchWriteError`.
    func write(_ batch: [ListWrite]) throws(BatchWriteError)

    /// Makes every write that has returned durable (synced to disk).
    func synchronize() throws
}
