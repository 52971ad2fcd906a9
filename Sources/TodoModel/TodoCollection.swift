import Foundation

/// Every item, and the rules of every command on them.
///
/// Commands are pure: each validates its input and returns the `UndoStep` it
/// would make (nil when it would change nothing), without changing anything.
/// The caller stores the step durably and then `apply`s it. So a command that
/// fails to be stored leaves the collection exactly as it was.
public struct TodoCollection: Sendable {
    public private(set) var items: [TodoID: TodoItem]
    /// The id the next added item gets. Ids only grow, so none is reused.
    public private(set) var nextID: TodoID

    public init(items: [TodoItem], nextID: TodoID) {
        self.items = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        let afterLargest = TodoID((items.map(\.id.rawValue).max() ?? 0) + 1)
        self.nextID = max(nextID, afterLargest)
    }

    public subscript(id: TodoID) -> TodoItem? { items[id] }

    public var count: Int { items.count }

    private func item(_ id: TodoID) throws(TodoError) -> TodoItem {
        guard let item = items[id] else { throw .notFound(id) }
        return item
    }

    // MARK: Commands

    public func add(title: String, due: DueDate?, at now: Date) throws(TodoError) -> UndoStep {
        let title = try TodoTitle.validated(title)
        let item = TodoItem(id: nextID, title: title, createdAt: now, due: due)
        return UndoStep(description: "add \(Self.quoted(title))", changes: [ItemChange(before: nil, after: item)])
    }

    public func edit(_ id: TodoID, title: String, at now: Date) throws(TodoError) -> UndoStep? {
        let before = try item(id)
        let title = try TodoTitle.validated(title)
        guard title != before.title else { return nil }
        var after = before
        after.title = title
        after.updatedAt = now
        return UndoStep(description: "rename \(Self.quoted(before.title))", changes: [ItemChange(before: before, after: after)])
    }

    public func setDone(_ id: TodoID, _ done: Bool, at now: Date) throws(TodoError) -> UndoStep? {
        let before = try item(id)
        var after = before
        guard after.setDone(done, at: now) else { return nil }
        let verb = done ? "complete" : "reopen"
        return UndoStep(description: "\(verb) \(Self.quoted(before.title))", changes: [ItemChange(before: before, after: after)])
    }

    public func setDue(_ id: TodoID, _ due: DueDate?, at now: Date) throws(TodoError) -> UndoStep? {
        let before = try item(id)
        guard before.due != due else { return nil }
        var after = before
        after.due = due
        after.updatedAt = now
        let verb = due == nil ? "clear the due date of" : "set the due date of"
        return UndoStep(description: "\(verb) \(Self.quoted(before.title))", changes: [ItemChange(before: before, after: after)])
    }

    public func delete(_ id: TodoID) throws(TodoError) -> UndoStep {
        let before = try item(id)
        return UndoStep(description: "delete \(Self.quoted(before.title))", changes: [ItemChange(before: before, after: nil)])
    }

    /// If any item is active, all become done; otherwise all become active.
    /// One step, however many items it touches.
    public func toggleAll(at now: Date) -> UndoStep? {
        let makeDone = items.values.contains { !$0.isDone }
        let changes = items.values.sorted { $0.id < $1.id }.compactMap { before -> ItemChange? in
            var after = before
            return after.setDone(makeDone, at: now) ? ItemChange(before: before, after: after) : nil
        }
        guard !changes.isEmpty else { return nil }
        return UndoStep(description: makeDone ? "mark all done" : "mark all active", changes: changes)
    }

    /// Deletes every done item, as one step.
    public func clearCompleted() -> UndoStep? {
        let changes = items.values.filter(\.isDone).sorted { $0.id < $1.id }.map { ItemChange(before: $0, after: nil) }
        guard !changes.isEmpty else { return nil }
        let count = changes.count
        return UndoStep(description: "clear \(count) completed \(count == 1 ? "item" : "items")", changes: changes)
    }

    // MARK: Applying

    /// Makes every change's `after` state true.
    public mutating func apply(_ step: UndoStep) {
        for change in step.changes {
            if let after = change.after {
                items[after.id] = after
                if after.id >= nextID { nextID = TodoID(after.id.rawValue + 1) }
            } else {
                items[change.id] = nil
            }
        }
    }

    /// Puts `nextID` back after the add that raised it was taken back (its
    /// write failed), so memory and store agree on the next id.
    public mutating func restoreNextID(_ id: TodoID) {
        nextID = max(id, TodoID((items.keys.map(\.rawValue).max() ?? 0) + 1))
    }

    /// Titles in step descriptions, in typographic quotes: add “buy milk”.
    static func quoted(_ title: String) -> String {
        "\u{201C}\(title)\u{201D}"
    }
}
