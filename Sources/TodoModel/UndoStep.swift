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

    /// Several steps made one after the other, as one step: each item's
    /// state before the first and after the last (items added and deleted
    /// within it leave no trace). Nil when there is no step or, in sum, no change.
    public init?(merging steps: [UndoStep]) {
        guard steps.count > 1 else {
            guard let only = steps.first else { return nil }
            self = only
            return
        }
        var order: [TodoID] = []
        var merged: [TodoID: ItemChange] = [:]
        for change in steps.flatMap(\.changes) {
            if let earlier = merged[change.id] {
                merged[change.id] = ItemChange(before: earlier.before, after: change.after)
            } else {
                order.append(change.id)
                merged[change.id] = change
            }
        }
        let changes = order.compactMap { merged[$0] }.filter { $0.before != $0.after }
        guard !changes.isEmpty else { return nil }
        let descriptions = steps.map(\.description)
        let description =
            descriptions.count <= 3
            ? descriptions.joined(separator: ", ")
            : "\(descriptions[0]) and \(descriptions.count - 1) more changes"
        self.init(description: description, changes: changes)
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
