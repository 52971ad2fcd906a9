import TodoViewModels

/// Where the list is kept: what the daemon's state owner, the only code that
/// talks to a store, needs of one.
///
/// `write` stores a batch of transactions in one database transaction;
/// `synchronize` makes every write before it durable. They are separate so
/// that many batches can share one sync (group commit): the owner
/// acknowledges a transaction only after a `synchronize` that began after
/// its `write` returned.
public protocol ListStore: Sendable {
    /// Everything stored, to start from.
    func load() throws -> ListSnapshot

    /// Stores `batch` in one transaction, a savepoint per write; see `BatchWriteError`.
    func write(_ batch: [ListWrite]) throws(BatchWriteError)

    /// Makes every write that has returned durable (synced to disk).
    func synchronize() throws

    /// The record a clean shutdown left (see `SQLiteTodoStore.resumeRecord()`).
    func resumeRecord() throws -> ResumeRecord?

    /// Whether the next write, even an empty batch, must run to delete the resume record.
    var hasPendingResumeRecord: Bool { get }

    /// Keeps `record` for the next start, replacing any other, durably.
    func saveResumeRecord(_ record: ResumeRecord) throws
}
