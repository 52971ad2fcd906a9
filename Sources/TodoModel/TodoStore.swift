import Foundation

/// Where to-do state is kept.
///
/// The view models reach persistence only through this protocol, so they can
/// be exercised without a socket or a disk.
///
/// `commit` is one atomic transaction; `synchronize` makes every commit
/// before it durable. They are separate so that many commits can share one
/// sync (group commit): a caller acknowledges an edit only after a
/// `synchronize` that began after the edit's `commit` returned.
public protocol TodoStore: Sendable {
    /// Everything stored, to start from.
    func load() throws -> StoredState

    /// Writes all of `write` in one transaction, or nothing.
    func commit(_ write: StoreWrite) throws

    /// Makes every commit that has returned durable (synced to disk).
    func synchronize() throws

    /// Keeps `record`, replacing any other, until the first change after
    /// `resumeRecord()` has read it.
    func saveResumeRecord(_ record: ResumeRecord) throws

    /// The record saved last, if any. Reading it writes nothing (a start
    /// must not need free space); the store removes it with the next write
    /// or sync, before any change after it can be acknowledged or announced,
    /// so a record is used at most once.
    func resumeRecord() throws -> ResumeRecord?
}

extension TodoStore {
    /// A store whose commits are durable when they return needs no sync.
    public func synchronize() throws {}
    /// A store that keeps no resume record: clients always start afresh.
    public func saveResumeRecord(_ record: ResumeRecord) throws {}
    public func resumeRecord() throws -> ResumeRecord? { nil }
}

/// What the daemon keeps across a clean restart so clients can resume their
/// subscriptions: the epoch and revision it had reached and its recent change
/// history, each entry an opaque encoded blob. A crash leaves no record, and
/// the next start begins a new epoch.
public struct ResumeRecord: Hashable, Sendable {
    public var epoch: String
    public var revision: Int
    /// Entries by revision, oldest first.
    public var history: [Entry]

    public struct Entry: Hashable, Sendable {
        public var revision: Int
        public var payload: Data
        public init(revision: Int, payload: Data) {
            self.revision = revision
            self.payload = payload
        }
    }

    public init(epoch: String, revision: Int, history: [Entry]) {
        self.epoch = epoch
        self.revision = revision
        self.history = history
    }
}

/// The state a daemon starts from.
public struct StoredState: Sendable {
    public var items: [TodoItem]
    /// Larger than every id ever handed out, including deleted ones.
    public var nextID: TodoID
    public var history: UndoHistory
    /// Filter and sort of the shared views, by view name.
    public var viewSettings: [String: ViewSettings]
    public var firedReminders: Set<ReminderKey>

    public init(
        items: [TodoItem] = [], nextID: TodoID = TodoID(1), history: UndoHistory = UndoHistory(),
        viewSettings: [String: ViewSettings] = [:], firedReminders: Set<ReminderKey> = []
    ) {
        self.items = items
        self.nextID = nextID
        self.history = history
        self.viewSettings = viewSettings
        self.firedReminders = firedReminders
    }
}

/// One transaction's worth of changes.
public struct StoreWrite: Sendable {
    /// Item states to store (inserted with their id if new). Items whose
    /// `after` is nil are deleted.
    public var changes: [ItemChange] = []
    public var historyChange: HistoryChange?
    public var viewSettings: [String: ViewSettings] = [:]
    public var firedReminders: [ReminderKey] = []

    public enum HistoryChange: Sendable {
        /// A new step: pushed on the undo stack; the redo stack is cleared.
        case record(UndoStep)
        /// The newest undo step moved to the redo stack.
        case undo
        /// The newest redo step moved back to the undo stack.
        case redo
    }

    public init(
        changes: [ItemChange] = [], historyChange: HistoryChange? = nil,
        viewSettings: [String: ViewSettings] = [:], firedReminders: [ReminderKey] = []
    ) {
        self.changes = changes
        self.historyChange = historyChange
        self.viewSettings = viewSettings
        self.firedReminders = firedReminders
    }
}

/// How a shared view is filtered and sorted, as stored (raw names, so the
/// model need not know the view models' enums).
public struct ViewSettings: Hashable, Sendable, Codable {
    public var filter: String
    public var sort: String

    public init(filter: String, sort: String) {
        self.filter = filter
        self.sort = sort
    }
}

/// A reminder that has fired: for which item, for which condition. Kept so a
/// reminder fires once, even across restarts.
public struct ReminderKey: Hashable, Sendable, Codable {
    public var itemID: TodoID
    public var condition: String

    public init(itemID: TodoID, condition: String) {
        self.itemID = itemID
        self.condition = condition
    }
}
