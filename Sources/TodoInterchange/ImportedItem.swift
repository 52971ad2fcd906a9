import FoundationEssentials
import TodoModel

/// One item read from an import file, before it is matched with the list:
/// everything the file says about it, already checked against todod's rules
/// (a title that is too long is an `ImportProblem`, not an item).
public struct ImportedItem: Hashable, Sendable {
    /// How a re-import finds the item again.
    public enum Identity: Hashable, Sendable {
        /// A Taskwarrior UUID or an iCalendar UID (or one todod's exports derived).
        case external(String)
        /// A todo.txt line's identity (`TodoTxtFormat.identity`): lines have no ids.
        case line(String)
    }

    public var identity: Identity
    /// Where the item is in the file, for reports and errors: "line 3", "task 12".
    public var source: String
    public var title: String
    public var isDone: Bool
    public var createdAt: Date?
    public var updatedAt: Date?
    public var completedAt: Date?
    public var due: DueDate?
    public var wait: DueDate?
    public var tags: [String]
    public var project: String?
    public var priority: Priority?
    public var notes: [TodoNote]
    public var recurrence: Recurrence?
    /// The declared fields' values the file gives (`scheduled`, `until`,
    /// those todod.conf declares), by field name, read by the catalog the
    /// batch was read with (`ImportBatch.fields`).
    public var values: [String: FieldValue]
    /// What could not be carried over as it was, worded for the person
    /// importing: "priority D kept as tag pri-D".
    public var remarks: [String]
    /// What the file says that todod does not model, kept as it came.
    public var foreign: ForeignFields

    public init(
        identity: Identity, source: String, title: String, isDone: Bool = false, createdAt: Date? = nil,
        updatedAt: Date? = nil, completedAt: Date? = nil, due: DueDate? = nil, wait: DueDate? = nil,
        tags: [String] = [], project: String? = nil, priority: Priority? = nil, notes: [TodoNote] = [],
        recurrence: Recurrence? = nil, values: [String: FieldValue] = [:], remarks: [String] = [],
        foreign: ForeignFields = ForeignFields()
    ) {
        self.identity = identity
        self.source = source
        self.title = title
        self.isDone = isDone
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.completedAt = completedAt
        self.due = due
        self.wait = wait
        self.tags = tags
        self.project = project
        self.priority = priority
        self.notes = notes
        self.recurrence = recurrence
        self.values = values
        self.remarks = remarks
        self.foreign = foreign
    }
}

/// What an import file holds: the items to import, and the entries it
/// skips on purpose (a deleted Taskwarrior task, a cancelled to-do), each
/// with where it is and why.
public struct ImportBatch: Hashable, Sendable {
    public var items: [ImportedItem]
    public var skipped: [Skipped]
    /// The fields the file was read with. An import that updates an item
    /// sets each of them from the file (clearing those it has no value
    /// for), as it sets the item's own fields: the same catalog decides
    /// what was read and what is replaced.
    public var fields: FieldCatalog

    public struct Skipped: Hashable, Sendable {
        public var source: String
        public var title: String
        public var reason: String
        public init(source: String, title: String, reason: String) {
            self.source = source
            self.title = title
            self.reason = reason
        }
    }

    public init(items: [ImportedItem] = [], skipped: [Skipped] = [], fields: FieldCatalog = .builtIn) {
        self.items = items
        self.skipped = skipped
        self.fields = fields
    }
}

/// Input that cannot be imported: where it is ("line 7", "task 3 (uuid …)")
/// and what is wrong, so the person can fix the file. Nothing is imported.
public struct ImportProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public var location: String
    public var message: String

    public init(location: String, message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}
