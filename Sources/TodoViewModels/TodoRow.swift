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
/// The properties are declared in alphabetical order, the order the wire
/// sorts keys in, so a row is encoded as it goes without sorting.
public struct TodoRow: Codable, Hashable, Sendable {
    /// True while it depends on an open item; left out otherwise.
    public var blocked: Bool?
    /// True while an open item depends on it; left out otherwise.
    public var blocking: Bool?
    /// When it was last marked done (ISO 8601), or null.
    @ExplicitNull public var completed: String?
    /// True on a row shown only because a subtask under it matches the
    /// view's query (the path to it), not because it matches itself: it is
    /// not counted, and a client may dim it. Left out otherwise.
    public var context: Bool?
    /// When it was added (ISO 8601).
    public var created: String
    /// "created today", "created 3 days ago", "created 2026-10-01".
    public var createdText: String
    /// In a tree view, how many parents are above it (a subtask of a
    /// top-level item is 1): a client indents by it. Left out at the top
    /// level and in flat views.
    public var depth: Int?
    public var done: Bool
    /// The due day or moment (ISO 8601), or null.
    @ExplicitNull public var due: String?
    /// "due tomorrow", "due today at 14:00", or nil (null) when the item has no due date.
    @ExplicitNull public var dueText: String?
    /// Priority, project, tags and repetition, compactly:
    /// "H · home.garden · +errands +home · ↻ weekly"; "" when it has none.
    public var fieldsText: String
    /// In a view grouped by project, the header of the row's section
    /// ("home.garden", or "(no project)"); null when the view is not grouped.
    /// A client draws a header where it differs from the row above's.
    @ExplicitNull public var group: String?
    public var id: Int64
    /// When it last changed (ISO 8601).
    public var modified: String
    public var noteCount: Int
    /// Not done and past due.
    public var overdue: Bool
    /// "H", "M", "L", or null.
    @ExplicitNull public var priority: String?
    @ExplicitNull public var project: String?
    /// "weekly", "every 3 days from completion", or null.
    @ExplicitNull public var recurrence: String?
    /// A to Z ignoring case, as written.
    public var tags: [String]
    public var title: String
    /// The declared fields' values worded, by field name ("scheduled
    /// tomorrow", "Estimate: 3"); left out when the item has none.
    public var valueTexts: [String: String]?
    /// The declared fields' raw values, by field name: a number, or text
    /// (ISO 8601 for dates and durations); left out when the item has none.
    public var values: [String: RowFieldValue]?
    /// The wait day or moment (ISO 8601), or null.
    @ExplicitNull public var wait: String?
    /// "waiting until Monday 30 November", while a wait date hides the item; else null.
    @ExplicitNull public var waitText: String?

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
