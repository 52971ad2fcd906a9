/// One user command, recorded so it can be undone and redone.
///
/// A step is data, not code: for every item it touched, the item before and
/// after. Undo writes the "before" states back (re-inserting a deleted item
/// with its own id), redo writes the "after" states. So any command, and any
/// bulk command as one step, is undone the same way, and steps can be stored
/// and survive a restart.
public struct UndoStep: Hashable, Sendable, Codable {
    /// What the step did, as a person would say it: `add “buy milk”`.
    public var description: String
    public var changes: [ItemChange]

    public init(description: String, changes: [ItemChange]) {
        self.description = description
        self.changes = changes
    }

    /// The step that reverses this one.
    public var inverse: UndoStep {
        UndoStep(description: description, changes: changes.reversed().map(\.inverse))
    }
}

/// One item's state before and after a command (`nil`: did not exist).
public struct ItemChange: Hashable, Sendable, Codable {
    public var before: TodoItem?
    public var after: TodoItem?

    public init(before: TodoItem?, after: TodoItem?) {
        self.before = before
        self.after = after
    }

    public var inverse: ItemChange { ItemChange(before: after, after: before) }

    public var id: TodoID { (after ?? before)!.id }
}
