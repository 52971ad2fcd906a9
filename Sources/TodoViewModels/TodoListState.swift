/// The list view model's values apart from its rows: counters and flags,
/// already worded. Cheap to compute, so every change compares old and new.
public struct TodoListProperties: Codable, Hashable, Sendable {
    public var filter: ListFilter
    public var sort: ListSort
    /// "0 items left", "1 item left", "2 items left".
    public var itemsLeft: String
    public var activeCount: Int
    public var completedCount: Int
    public var totalCount: Int
    /// Every item is done (and there is at least one): toggle-all would reopen them all.
    public var allDone: Bool
    public var canClearCompleted: Bool
    /// What to show instead of rows when this view has none; nil when it has rows.
    public var emptyText: String?
    public var canUndo: Bool
    /// "Undo add “buy milk”", or nil when there is nothing to undo.
    public var undoText: String?
    public var canRedo: Bool
    public var redoText: String?
    /// Reminders raised and not yet resolved (the first 20, by item id).
    public var alerts: [ReminderAlert]
    /// How many reminders there are in all.
    public var alertCount: Int

    public init(
        filter: ListFilter, sort: ListSort, itemsLeft: String, activeCount: Int, completedCount: Int, totalCount: Int,
        allDone: Bool, canClearCompleted: Bool, emptyText: String?, canUndo: Bool, undoText: String?,
        canRedo: Bool, redoText: String?, alerts: [ReminderAlert] = [], alertCount: Int = 0
    ) {
        self.filter = filter
        self.sort = sort
        self.itemsLeft = itemsLeft
        self.activeCount = activeCount
        self.completedCount = completedCount
        self.totalCount = totalCount
        self.allDone = allDone
        self.canClearCompleted = canClearCompleted
        self.emptyText = emptyText
        self.canUndo = canUndo
        self.undoText = undoText
        self.canRedo = canRedo
        self.redoText = redoText
        self.alerts = alerts
        self.alertCount = alertCount
    }

    /// Every property is written, a missing value as null, so a snapshot
    /// always has every key and an event can set one back to null.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(filter, forKey: .filter)
        try container.encode(sort, forKey: .sort)
        try container.encode(itemsLeft, forKey: .itemsLeft)
        try container.encode(activeCount, forKey: .activeCount)
        try container.encode(completedCount, forKey: .completedCount)
        try container.encode(totalCount, forKey: .totalCount)
        try container.encode(allDone, forKey: .allDone)
        try container.encode(canClearCompleted, forKey: .canClearCompleted)
        try container.encode(emptyText, forKey: .emptyText)
        try container.encode(canUndo, forKey: .canUndo)
        try container.encode(undoText, forKey: .undoText)
        try container.encode(canRedo, forKey: .canRedo)
        try container.encode(redoText, forKey: .redoText)
        try container.encode(alerts, forKey: .alerts)
        try container.encode(alertCount, forKey: .alertCount)
    }

    /// The names of the properties whose values differ from `other`'s.
    public func changedKeys(since other: TodoListProperties) -> [String] {
        var keys: [String] = []
        if filter != other.filter { keys.append("filter") }
        if sort != other.sort { keys.append("sort") }
        if itemsLeft != other.itemsLeft { keys.append("itemsLeft") }
        if activeCount != other.activeCount { keys.append("activeCount") }
        if completedCount != other.completedCount { keys.append("completedCount") }
        if totalCount != other.totalCount { keys.append("totalCount") }
        if allDone != other.allDone { keys.append("allDone") }
        if canClearCompleted != other.canClearCompleted { keys.append("canClearCompleted") }
        if emptyText != other.emptyText { keys.append("emptyText") }
        if canUndo != other.canUndo { keys.append("canUndo") }
        if undoText != other.undoText { keys.append("undoText") }
        if canRedo != other.canRedo { keys.append("canRedo") }
        if redoText != other.redoText { keys.append("redoText") }
        if alerts != other.alerts { keys.append("alerts") }
        if alertCount != other.alertCount { keys.append("alertCount") }
        return keys
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
