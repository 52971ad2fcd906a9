import TodoViewModels

/// Where the list is kept: what the daemon's state owner, the only code that
/// talks to a store, needs of any store, a file of this instance's own
/// (`LocalListStore`) or a database several instances share
/// (`SharedListStore`, which commits on top of a revision instead).
public protocol ListStore: Sendable {
    /// Everything stored, to start from.
    func load() throws -> ListSnapshot

    /// The record a clean shutdown left (see `SQLiteTodoStore.resumeRecord()`).
    func resumeRecord() throws -> ResumeRecord?

    /// Keeps `record` for the next start, replacing any other, durably.
    func saveResumeRecord(_ record: ResumeRecord) throws
}
