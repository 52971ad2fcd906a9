/// The list view model's values apart from its rows: counters and flags,
/// already worded. Cheap to compute, so every change compares old and new.
///
/// Each stored property has one declaration in `declarations`, right below,
/// which gives its wire name and meaning; change keys, `Codable`, the
/// protocol's property lists, wire values and schema all come from there.
public struct TodoListProperties: ViewModelProperties {
    public var filter: ListFilter
    public var query: String
    public var sort: ListSort
    public var grouping: ListGrouping?
    public var itemsLeft: String
    public var activeCount: Int
    public var completedCount: Int
    public var totalCount: Int
    public var overdueCount: Int
    public var overdueText: String
    public var dueTodayCount: Int
    public var dueTodayText: String
    public var tagCounts: [NameCount]
    public var projectCounts: [NameCount]
    public var allDone: Bool
    public var canClearCompleted: Bool
    public var emptyText: String?
    public var canUndo: Bool
    public var undoText: String?
    public var canRedo: Bool
    public var redoText: String?
    public var alerts: [ReminderAlert]
    public var alertCount: Int
    public var desktopReminders: [DesktopReminder]

    public static let declarations: [ViewModelProperty<Self>] = [
        .init("filter", \.filter, doc: "Which items the view shows besides its query: all, active (not done) or completed."),
        .init(
            "query", \.query,
            doc: "The view's query in its canonical form (PROTOCOL.md, Queries); \"\" shows every item. Unless it names a status, waiting items are hidden."
        ),
        .init(
            "sort", \.sort,
            doc: "The order of the rows: sort keys separated by commas, each optionally followed by - to reverse it (PROTOCOL.md, Sorting); ties by id."
        ),
        .init("grouping", \.grouping, doc: "\"project\": rows are grouped by project, and each row's group names its section; null: not grouped."),
        .init("itemsLeft", \.itemsLeft, doc: "\"0 items left\", \"1 item left\", \"2 items left\": items the query matches that are not done."),
        .init("activeCount", \.activeCount, doc: "Items the query matches that are not done."),
        .init("completedCount", \.completedCount, doc: "Items the query matches that are done."),
        .init("totalCount", \.totalCount, doc: "Items the query matches."),
        .init("overdueCount", \.overdueCount, doc: "Items the query matches that are overdue."),
        .init("overdueText", \.overdueText, doc: "\"0 overdue\", \"1 overdue\", \"3 overdue\"."),
        .init("dueTodayCount", \.dueTodayCount, doc: "Items the query matches, not done, due today."),
        .init("dueTodayText", \.dueTodayText, doc: "\"nothing due today\", \"1 due today\", \"2 due today\"."),
        .init("tagCounts", \.tagCounts, doc: "For each tag, how many items the query matches that are not done and have it; by tag, A to Z."),
        .init("projectCounts", \.projectCounts, doc: "For each project, how many items the query matches that are not done and are in it; by project, A to Z."),
        .init("allDone", \.allDone, doc: "There are items and every one is done: toggle-all would reopen them all."),
        .init("canClearCompleted", \.canClearCompleted, doc: "At least one item is done."),
        .init("emptyText", \.emptyText, doc: "What to show instead of rows when this view has none; null when it has rows."),
        .init("canUndo", \.canUndo, doc: "Whether todo.undo would do something."),
        .init("undoText", \.undoText, doc: "\"Undo add “buy milk”\"; null when there is nothing to undo."),
        .init("canRedo", \.canRedo, doc: "Whether todo.redo would do something."),
        .init("redoText", \.redoText, doc: "\"Redo mark all done\"; null when there is nothing to redo."),
        .init("alerts", \.alerts, doc: "Reminders raised and not yet resolved: the first 20, by item id."),
        .init("alertCount", \.alertCount, doc: "How many reminders there are in all."),
        .init(
            "desktopReminders", \.desktopReminders,
            doc: "The reminders that belong on the desktop now (todoctl notify shows them): raised, neither snoozed nor dismissed, outside quiet hours; the first 20."
        ),
    ]

    public init(
        filter: ListFilter = .all, query: String = "", sort: ListSort = .created, grouping: ListGrouping? = nil,
        itemsLeft: String = "", activeCount: Int = 0, completedCount: Int = 0, totalCount: Int = 0,
        overdueCount: Int = 0, overdueText: String = "", dueTodayCount: Int = 0, dueTodayText: String = "",
        tagCounts: [NameCount] = [], projectCounts: [NameCount] = [],
        allDone: Bool = false, canClearCompleted: Bool = false, emptyText: String? = nil, canUndo: Bool = false,
        undoText: String? = nil, canRedo: Bool = false, redoText: String? = nil, alerts: [ReminderAlert] = [],
        alertCount: Int = 0, desktopReminders: [DesktopReminder] = []
    ) {
        self.filter = filter
        self.query = query
        self.sort = sort
        self.grouping = grouping
        self.itemsLeft = itemsLeft
        self.activeCount = activeCount
        self.completedCount = completedCount
        self.totalCount = totalCount
        self.overdueCount = overdueCount
        self.overdueText = overdueText
        self.dueTodayCount = dueTodayCount
        self.dueTodayText = dueTodayText
        self.tagCounts = tagCounts
        self.projectCounts = projectCounts
        self.allDone = allDone
        self.canClearCompleted = canClearCompleted
        self.emptyText = emptyText
        self.canUndo = canUndo
        self.undoText = undoText
        self.canRedo = canRedo
        self.redoText = redoText
        self.alerts = alerts
        self.alertCount = alertCount
        self.desktopReminders = desktopReminders
    }

    public func encode(to encoder: any Encoder) throws { try encodeDeclaredProperties(to: encoder) }

    public init(from decoder: any Decoder) throws {
        // Every stored property is declared, so each of these is read over.
        self.init()
        try decodeDeclaredProperties(from: decoder)
    }
}

/// Everything a client needs to draw one list view: its properties and rows.
public struct TodoListState: Codable, Hashable, Sendable {
    public var properties: TodoListProperties
    public var rows: [TodoRow]

    public init(properties: TodoListProperties, rows: [TodoRow]) {
        self.properties = properties
        self.rows = rows
    }

    /// Applies a change set, as a client does: the result equals the view's new state.
    public mutating func apply(_ change: TodoListChange) {
        properties = change.properties
        for operation in change.rowOperations {
            switch operation {
            case .insert(let index, let row): rows.insert(row, at: index)
            case .remove(let index): rows.remove(at: index)
            case .update(let index, let row): rows[index] = row
            case .move(let from, let to, let row):
                rows.remove(at: from)
                rows.insert(row, at: to)
            case .reset(let all): rows = all
            }
        }
    }
}

/// What one command changed in one view: the new values of the properties
/// that changed, and the row edits, in order, that turn the old rows into the
/// new ones. Its size depends on what changed, not on how many rows there are.
public struct TodoListChange: Hashable, Sendable {
    /// The properties after the change (all of them; `changedKeys` says which differ).
    public var properties: TodoListProperties
    public var changedKeys: [String]
    public var rowOperations: [RowOperation]

    public init(properties: TodoListProperties, changedKeys: [String], rowOperations: [RowOperation]) {
        self.properties = properties
        self.changedKeys = changedKeys
        self.rowOperations = rowOperations
    }

    public var isEmpty: Bool { changedKeys.isEmpty && rowOperations.isEmpty }
}

/// One edit of a view's rows. Indexes refer to the rows as they are when the
/// operation is applied (after the ones before it).
public enum RowOperation: Hashable, Sendable {
    case insert(index: Int, row: TodoRow)
    case remove(index: Int)
    case update(index: Int, row: TodoRow)
    /// The row at `from` is taken out and put back, as `row`, at `to` (an
    /// index among the rows without it): an edit that changed its place.
    case move(from: Int, to: Int, row: TodoRow)
    /// All rows replaced: used when one command touches so many rows that
    /// listing the edits would be larger than the rows themselves.
    case reset(rows: [TodoRow])
}
