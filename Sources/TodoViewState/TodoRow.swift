/// One row of the list, ready to display, with the raw fields beside.
///
/// Rows carry the id a user types back (`todoctl done 3`) and texts already
/// worded for the moment they were made; a client interprets nothing. For
/// scripts, they also carry the item's fields as data: dates in ISO 8601
/// (`2026-11-27` for a day, `2026-11-27T17:00:00Z` for a moment), tags,
/// project, priority letter, recurrence text and note count. Fields are
/// only ever added (PROTOCOL.md, *Compatibility*), so a client ignores
/// those it does not know.
///
/// The keys are the cases of `CodingKeys`; what each means, and its shape
/// on the wire, is declared once per case in `RowKey.swift`
/// (`TodoRow.keys`). A new key is a property here, its case, and its line
/// there. Properties and cases are in alphabetical order, the order the
/// wire sorts keys in, so a row is encoded as it goes without sorting.
public struct TodoRow: Codable, Hashable, Sendable {
    public var blocked: Bool?
    public var blocking: Bool?
    @ExplicitNull public var completed: String?
    public var context: Bool?
    public var created: String
    public var createdText: String
    public var depth: Int?
    public var done: Bool
    @ExplicitNull public var due: String?
    @ExplicitNull public var dueText: String?
    public var fieldsText: String
    @ExplicitNull public var group: String?
    public var id: Int64
    public var modified: String
    public var noteCount: Int
    public var overdue: Bool
    @ExplicitNull public var priority: String?
    @ExplicitNull public var project: String?
    @ExplicitNull public var recurrence: String?
    public var tags: [String]
    public var title: String
    public var valueTexts: [String: String]?
    public var values: [String: RowFieldValue]?
    @ExplicitNull public var wait: String?
    @ExplicitNull public var waitText: String?

    /// Every key a row is written with: the properties' names, A to Z.
    /// `CaseIterable`, so the list of keys is this enumeration
    /// (`TodoRow.keys`), not a copy of it.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case blocked, blocking, completed, context, created, createdText, depth, done, due, dueText, fieldsText, group, id
        case modified, noteCount, overdue, priority, project, recurrence, tags, title, valueTexts, values, wait, waitText
    }

    public init(
        id: Int64, title: String, done: Bool, createdText: String, dueText: String? = nil, overdue: Bool = false,
        created: String = "", modified: String = "", completed: String? = nil, due: String? = nil,
        wait: String? = nil, waitText: String? = nil, tags: [String] = [], project: String? = nil,
        priority: String? = nil, recurrence: String? = nil, noteCount: Int = 0, fieldsText: String = "",
        group: String? = nil, values: [String: RowFieldValue]? = nil, valueTexts: [String: String]? = nil,
        blocked: Bool? = nil, blocking: Bool? = nil, depth: Int? = nil, context: Bool? = nil
    ) {
        self.blocked = blocked
        self.blocking = blocking
        self.depth = depth
        self.context = context
        self.id = id
        self.title = title
        self.done = done
        self.createdText = createdText
        self.dueText = dueText
        self.overdue = overdue
        self.created = created
        self.modified = modified
        self.completed = completed
        self.due = due
        self.wait = wait
        self.waitText = waitText
        self.tags = tags
        self.project = project
        self.priority = priority
        self.recurrence = recurrence
        self.noteCount = noteCount
        self.fieldsText = fieldsText
        self.group = group
        self.values = values
        self.valueTexts = valueTexts
    }
}
