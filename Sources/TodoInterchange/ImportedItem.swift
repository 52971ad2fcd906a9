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
    /// The links to other items the file gives (`depends`, `parent`), not
    /// yet in `values`: which item each names is the import plan's to say
    /// (`ImportPlan`), once it knows the ids of the file's items. Until
    /// then, and for good when a link names no item, what the link was read
    /// from is in `foreign` as it came (a todo.txt line, which keeps
    /// nothing aside, resolves its links itself and keeps the rest in the
    /// title).
    public var links: [ImportedLink]
    /// What `remarks` names as kept for the format (`ImportFields.keptRemark`),
    /// and of those the attributes or properties kept only for links: not
    /// named while the links may resolve, named by the plan if they stay.
    var keptNames: KeptNames?

    struct KeptNames: Hashable, Sendable {
        var program: String
        var names: [String]
        var linkOnly: Set<String>
    }

    public init(
        identity: Identity, source: String, title: String, isDone: Bool = false, createdAt: Date? = nil,
        updatedAt: Date? = nil, completedAt: Date? = nil, due: DueDate? = nil, wait: DueDate? = nil,
        tags: [String] = [], project: String? = nil, priority: Priority? = nil, notes: [TodoNote] = [],
        recurrence: Recurrence? = nil, values: [String: FieldValue] = [:], remarks: [String] = [],
        foreign: ForeignFields = ForeignFields(), links: [ImportedLink] = []
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
        self.links = links
    }
}

/// A link an imported item makes to another item (`depends`, `parent`), as
/// the file names that item.
public struct ImportedLink: Hashable, Sendable {
    /// The item the link names.
    public enum Target: Hashable, Sendable {
        /// An item of the same file: its index in `ImportBatch.items`.
        case batchItem(Int)
        /// An item by the identity its format names items by: a Taskwarrior
        /// UUID, a calendar's UID (`ExternalIdentity.normalized`). The file's
        /// own item of that identity, else the list's (`ImportPlan`).
        case identity(String)
    }

    /// Where the link is kept, as it came, while it names no item.
    public enum Source: Hashable, Sendable {
        /// A Taskwarrior attribute (`depends`, `parenttask`) in
        /// `ForeignFields.taskwarrior`: a list of UUIDs (a JSON array, or a
        /// string of them separated by commas) or one.
        case taskwarrior(attribute: String)
        /// A calendar's content line (`RELATED-TO;RELTYPE=PARENT:…`) in
        /// `ForeignFields.icalendar`.
        case icalendar(line: String)
        /// Nothing aside: the link was resolved when read (todo.txt).
        case none
    }

    /// The field the link is a value of: `depends` or `parent`.
    public var field: String
    public var target: Target
    /// The link's value as the file wrote it (a UUID, a UID), for remarks.
    public var value: String
    /// The attribute or property it was read from, for remarks: `depends`, `RELATED-TO`.
    public var property: String
    public var source: Source

    public init(field: String, target: Target, value: String, property: String, source: Source) {
        self.field = field
        self.target = target
        self.value = value
        self.property = property
        self.source = source
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
