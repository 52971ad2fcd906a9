import FoundationEssentials
import TodoInterchange
import TodoModel
import TodoViewState

/// A user command on the list. Each is one undo step (bulk ones included).
///
/// Text a person typed (shorthand, dates, repetitions) travels in the
/// command as typed: the view model reads it against its own clock and time
/// zone, so every client gets the same rules and tests get a fixed "now".
public enum TodoCommand: Hashable, Sendable {
    /// Adds an item titled exactly `title` (no shorthand), due `due` if given.
    case add(title: String, due: DueDate?)
    /// Adds an item titled exactly `title`, due as the date text `due` says.
    case addTitled(String, dueText: String)
    /// Adds an item from add shorthand: `buy milk +errands due:fri`. `due`,
    /// if given, is date text (`fri`, `2026-12-24`) and wins over a `due:` in the text.
    case addText(String, due: String? = nil)
    case edit(TodoID, title: String)
    case setDone(TodoID, Bool)
    case setDue(TodoID, DueDate?)
    /// Sets (date text) or clears (nil) a due date.
    case setDueText(TodoID, String?)
    /// Modify shorthand: `+home -work pri:L due:fri`; title words, if any, retitle it.
    case modify(TodoID, String)
    case addNote(TodoID, String)
    /// Removes note `number` (1 is the oldest).
    case removeNote(TodoID, number: Int)
    case delete(TodoID)
    case toggleAll
    case clearCompleted
    case undo
    case redo
    /// Carries out an import `planImport` planned in the same turn (nothing
    /// may change the list in between: an outdated plan is refused).
    case applyImport(ImportPlan)
}

/// What a command did: the row of the item it was about (for single-item
/// commands), each view's change set (views that did not change are absent),
/// what to store, and how to take it back if storing fails.
public struct CommandOutcome: Sendable {
    public var row: TodoRow?
    /// What the command did, as undo/redo texts say it ("add “buy milk”"); nil if nothing.
    public var description: String?
    public var changes: [ViewID: TodoListChange]
    /// What to store; nil when the command changed nothing.
    public var write: ListWrite?
    /// How to undo the change in memory if `write` fails; nil when nothing changed.
    public var applied: AppliedChange?
    /// The earliest instant at which an item this command touched fires a
    /// reminder or turns overdue; the owner's timer should tick by then.
    public var nextEvent: Date? = nil
}

/// What a transaction did: one result per command, in order, and the change
/// sets of the whole transaction (one per changed view).
public struct TransactionOutcome: Sendable {
    public struct Result: Sendable {
        /// The item the command was about (nil for bulk commands).
        public var subject: TodoID?
        /// What the command did ("add “buy milk”"), nil if it changed nothing.
        public var description: String?
        /// The subject's row after the whole transaction (nil if it no longer exists).
        public var row: TodoRow? = nil
    }

    public var results: [Result]
    /// The transaction's undo description, nil when it changed nothing.
    public var description: String?
    public var changes: [ViewID: TodoListChange]
    public var write: ListWrite?
    public var applied: AppliedChange?
    public var nextEvent: Date? = nil
}

/// A transaction was refused because of the command at `index` (0-based).
public struct TransactionError: Error, Equatable, Sendable {
    public var index: Int
    public var error: TodoError
    public init(index: Int, error: TodoError) {
        self.index = index
        self.error = error
    }
}

/// A change that is not a command: a view's new options, or a clock tick
/// (reminders fired, rows re-worded). `write` is nil when nothing needs
/// storing (an own view's options, a day's new wording).
public struct ListChangeOutcome: Sendable {
    public var changes: [ViewID: TodoListChange]
    public var write: ListWrite?
    public var applied: AppliedChange?
    /// For a tick: when to tick next.
    public var nextEvent: Date? = nil
}

/// What applying one change did to memory beyond what its write says, so
/// that a write that fails can be taken back: the view model then equals the
/// store again. Kept by the state owner until the write is durable.
public struct AppliedChange: Sendable {
    /// The items' changes, as applied (taken back by applying the inverse).
    var itemChanges: [ItemChange] = []
    /// The history's move, taken back with `UndoHistory.revert`.
    var historyMove: UndoHistory.Move?
    var nextIDBefore: TodoID
    var remindersBefore: Reminders?
    var desktopBefore: DesktopReminders?
    var viewDefinitionBefore: (view: ViewID, definition: ViewDefinition?)?
    var savedSettingsBefore: (name: String, settings: ViewSettings?)?
}
