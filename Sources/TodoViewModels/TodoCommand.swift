import Foundation
import TodoModel

/// A user command on the list. Each is one undo step (bulk ones included).
public enum TodoCommand: Hashable, Sendable {
    case add(title: String, due: DueDate?)
    case edit(TodoID, title: String)
    case setDone(TodoID, Bool)
    case setDue(TodoID, DueDate?)
    case delete(TodoID)
    case toggleAll
    case clearCompleted
    case undo
    case redo
}

/// What a command did: the row of the item it was about (for single-item
/// commands), and each view's change set (views that did not change are absent).
public struct CommandOutcome: Sendable {
    public var row: TodoRow?
    /// What the command did, as undo/redo texts say it ("add “buy milk”"); nil if nothing.
    public var description: String?
    public var changes: [ViewID: TodoListChange]
    /// The earliest instant at which an item this command touched fires a
    /// reminder or turns overdue; the owner's timer should tick by then.
    public var nextEvent: Date? = nil
}

/// What a clock tick did: reminders fired and rows re-worded, per view, and
/// when the next tick is due.
public struct TickOutcome: Sendable {
    public var changes: [ViewID: TodoListChange]
    public var nextEvent: Date?
}
