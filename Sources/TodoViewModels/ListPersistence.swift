import FoundationEssentials
import TodoModel
import TodoViewState

/// What the list keeps across restarts, as the view models want it at start:
/// the items, the undo history, the shared views' options and the reminders
/// already fired.
///
/// The view models never read or write a store themselves: they start from a
/// snapshot and, for every change, say what to write (`ListWrite`). The state
/// owner in the daemon is the only code that talks to the store, so these
/// types live here, with the layer whose state they are, and the model layer
/// knows nothing of shared views or reminders.
public struct ListSnapshot: Equatable, Sendable {
    public var items: [TodoItem]
    /// Larger than every id ever handed out, including deleted ones.
    public var nextID: TodoID
    public var history: UndoHistory
    /// Filter and sort of the shared views, by view name.
    public var viewSettings: [String: ViewSettings]
    public var firedReminders: Set<ReminderKey>
    /// The list's own identity (a UUID made when its store was created):
    /// exports derive the identities of items made here from it.
    public var listID: String
    /// Reminders snoozed or dismissed on the desktop.
    public var desktopReminders: [ReminderKey: DesktopReminderState]

    public init(
        items: [TodoItem] = [], nextID: TodoID = TodoID(1), history: UndoHistory = UndoHistory(),
        viewSettings: [String: ViewSettings] = [:], firedReminders: Set<ReminderKey> = [],
        listID: String = UUID().uuidString.lowercased(),
        desktopReminders: [ReminderKey: DesktopReminderState] = [:]
    ) {
        self.items = items
        self.nextID = nextID
        self.history = history
        self.viewSettings = viewSettings
        self.firedReminders = firedReminders
        self.listID = listID
        self.desktopReminders = desktopReminders
    }
}

/// What one transaction writes: it is stored all or nothing, and the state
/// owner acknowledges the transaction only once it is durable.
public struct ListWrite: Sendable {
    /// Item states to store (inserted with their id if new). Items whose
    /// `after` is nil are deleted.
    public var changes: [ItemChange] = []
    public var historyChange: HistoryChange?
    public var viewSettings: [String: ViewSettings] = [:]
    /// Named views deleted (`view.remove`).
    public var removedViews: [String] = []
    public var firedReminders: [ReminderKey] = []
    /// Reminders newly snoozed or dismissed, with their new state (replacing any stored).
    public var desktopReminders: [ReminderKey: DesktopReminderState] = [:]

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
        viewSettings: [String: ViewSettings] = [:], removedViews: [String] = [], firedReminders: [ReminderKey] = [],
        desktopReminders: [ReminderKey: DesktopReminderState] = [:]
    ) {
        self.changes = changes
        self.historyChange = historyChange
        self.viewSettings = viewSettings
        self.removedViews = removedViews
        self.firedReminders = firedReminders
        self.desktopReminders = desktopReminders
    }
}

/// How a shared (named) view is filtered, queried, sorted and grouped: kept
/// so the view comes back the same after a restart.
public struct ViewSettings: Hashable, Sendable {
    public var filter: ListFilter
    public var sort: ListSort
    /// The query in its canonical text (`Query.description`); empty for none.
    public var query: String
    public var grouping: ListGrouping?

    public init(filter: ListFilter = .all, sort: ListSort = .created, query: String = "", grouping: ListGrouping? = nil) {
        self.filter = filter
        self.sort = sort
        self.query = query
        self.grouping = grouping
    }
}

/// A reminder that has fired: for which item, for which condition. Kept so a
/// reminder fires once, even across restarts.
public struct ReminderKey: Hashable, Sendable {
    public var itemID: TodoID
    public var condition: ReminderAlert.Condition

    public init(itemID: TodoID, condition: ReminderAlert.Condition) {
        self.itemID = itemID
        self.condition = condition
    }
}

extension ListSnapshot {
    /// The snapshot after `write` is stored: what a store holds, computed in
    /// memory. Tests check with it that the writes a view model asks for
    /// describe exactly what it changed in memory.
    public mutating func apply(_ write: ListWrite) {
        var byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        for change in write.changes {
            byID[change.id] = change.after
            if let after = change.after, after.id >= nextID { nextID = TodoID(after.id.rawValue + 1) }
        }
        items = byID.values.sorted { $0.id < $1.id }
        switch write.historyChange {
        case .record(let step)?: history.record(step)
        case .undo?: _ = history.undo()
        case .redo?: _ = history.redo()
        case nil: break
        }
        viewSettings.merge(write.viewSettings) { $1 }
        for name in write.removedViews { viewSettings[name] = nil }
        firedReminders.formUnion(write.firedReminders)
        desktopReminders.merge(write.desktopReminders) { $1 }
    }
}
