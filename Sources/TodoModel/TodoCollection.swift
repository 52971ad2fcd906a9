import FoundationEssentials

/// Every item, and the rules of every command on them.
///
/// Commands are pure: each validates its input and returns the `UndoStep` it
/// would make (nil when it would change nothing), without changing anything.
/// The caller stores the step durably and then `apply`s it. So a command that
/// fails to be stored leaves the collection exactly as it was.
public struct TodoCollection: Sendable {
    /// Every item, in no particular order (taking one out moves the last
    /// into its place). An array beside an index by id, rather than a
    /// dictionary by id, so that code that looks at every item can read
    /// each where it lies (`forEachItem`): copying an item out costs a
    /// reference count on its title and tags, and a view of 100,000 items
    /// spent most of its time building on those.
    public private(set) var items: ContiguousArray<TodoItem>
    /// Where each item is in `items`.
    private var positions: TodoIDTable<Int32>
    /// The id the next added item gets. Ids only grow, so none is reused.
    public private(set) var nextID: TodoID
    /// Children and dependents, kept in step with `items`.
    public private(set) var links = ItemLinks()

    public init(items: [TodoItem], nextID: TodoID) {
        var byID = TodoIDTable<Int32>()
        byID.reserveCapacity(items.count)
        var stored = ContiguousArray<TodoItem>()
        stored.reserveCapacity(items.count)
        var links = ItemLinks()
        for item in items {
            precondition(byID[item.id] == nil, "two items with id \(item.id)")
            byID[item.id] = Int32(stored.count)
            stored.append(item)
            links.insert(item)
        }
        self.items = stored
        self.links = links
        positions = byID
        let afterLargest = TodoID((items.map(\.id.rawValue).max() ?? 0) + 1)
        self.nextID = max(nextID, afterLargest)
    }

    public subscript(id: TodoID) -> TodoItem? { positions[id].map { items[Int($0)] } }

    /// Whether an item has `id` (without copying it out).
    public func contains(_ id: TodoID) -> Bool { positions[id] != nil }

    public var count: Int { items.count }

    /// Calls `body` with every item, in no particular order, each read where it lies.
    public func forEachItem(_ body: (TodoItem) throws -> Void) rethrows {
        for index in items.indices { try body(items[index]) }
    }

    /// `body`'s result for the item with `id`, read where it lies; nil when there is none.
    public func withItem<Result>(_ id: TodoID, _ body: (TodoItem) throws -> Result) rethrows -> Result? {
        guard let position = positions[id] else { return nil }
        return try body(items[Int(position)])
    }

    private func item(_ id: TodoID) throws(TodoError) -> TodoItem {
        guard let item = self[id] else { throw .notFound(id) }
        return item
    }

    // MARK: Commands

    public func add(title: String, due: DueDate?, at now: Date) throws(TodoError) -> UndoStep {
        let title = try TodoTitle.validated(title)
        let item = TodoItem(id: nextID, title: title, createdAt: now, due: due)
        return UndoStep(description: "add \(Self.quoted(title))", changes: [ItemChange(before: nil, after: item)])
    }

    /// Adds an item with fields set by `edits` (tags, project, …). Its
    /// fields count as set when it was created, not as changed since.
    public func add(title: String, edits: [FieldEdit], at now: Date, in timeZone: TimeZone) throws(TodoError) -> UndoStep {
        let title = try TodoTitle.validated(title)
        var item = TodoItem(id: nextID, title: title, createdAt: now)
        try Self.checkTagCount(of: edits, on: item)
        item.apply(edits, at: now, in: timeZone)
        item.fieldChangedAt = [:]
        try checkLinks(of: item, before: nil)
        let change = ItemChange(before: nil, after: item)
        return UndoStep(description: "add \(Self.quoted(title))", changes: [change] + reopenedAncestors(for: change, at: now))
    }

    /// Changes an item's title (when `title` is not nil) and fields; nil
    /// when that changes nothing.
    public func modify(_ id: TodoID, title: String?, edits: [FieldEdit], at now: Date, in timeZone: TimeZone)
        throws(TodoError) -> UndoStep?
    {
        let before = try item(id)
        var after = before
        if let title {
            let title = try TodoTitle.validated(title)
            if title != before.title {
                after.title = title
                after.fieldChangedAt[.title] = now
                after.updatedAt = now
            }
        }
        try Self.checkTagCount(of: edits, on: after)
        after.apply(edits, at: now, in: timeZone)
        guard after != before else { return nil }
        try checkLinks(of: after, before: before)
        let change = ItemChange(before: before, after: after)
        return UndoStep(description: "modify \(Self.quoted(before.title))", changes: [change] + reopenedAncestors(for: change, at: now))
    }

    /// Adds a note (one line of text) at the end of an item's notes.
    public func addNote(_ id: TodoID, text: String, at now: Date) throws(TodoError) -> UndoStep {
        let before = try item(id)
        guard before.notes.count < TodoItem.maximumNotes else { throw .tooManyNotes(maximum: TodoItem.maximumNotes) }
        var after = before
        after.notes.append(TodoNote(text: try NoteText.validated(text), addedAt: now))
        after.fieldChangedAt[.notes] = now
        after.updatedAt = now
        return UndoStep(description: "add a note to \(Self.quoted(before.title))", changes: [ItemChange(before: before, after: after)])
    }

    /// Removes note `number` (1 is the oldest) of an item.
    public func removeNote(_ id: TodoID, number: Int, at now: Date) throws(TodoError) -> UndoStep {
        let before = try item(id)
        guard (1...max(1, before.notes.count)).contains(number), number <= before.notes.count else {
            throw .noteNotFound(id, number: number, count: before.notes.count)
        }
        var after = before
        after.notes.remove(at: number - 1)
        after.fieldChangedAt[.notes] = now
        after.updatedAt = now
        return UndoStep(
            description: "remove note \(number) of \(Self.quoted(before.title))", changes: [ItemChange(before: before, after: after)])
    }

    public func edit(_ id: TodoID, title: String, at now: Date) throws(TodoError) -> UndoStep? {
        let before = try item(id)
        let title = try TodoTitle.validated(title)
        guard title != before.title else { return nil }
        var after = before
        after.title = title
        after.fieldChangedAt[.title] = now
        after.updatedAt = now
        return UndoStep(description: "rename \(Self.quoted(before.title))", changes: [ItemChange(before: before, after: after)])
    }

    /// Marks an item done or active. Completing a recurring item with a due
    /// date also adds its next occurrence (with fresh copies of its
    /// subtasks), in the same step, so one undo takes back both.
    public func setDone(_ id: TodoID, _ done: Bool, at now: Date, in timeZone: TimeZone) throws(TodoError)
        -> UndoStep?
    {
        let before = try item(id)
        var after = before
        guard after.setDone(done, at: now) else { return nil }
        after.fieldChangedAt[.done] = now
        let verb = done ? "complete" : "reopen"
        var changes = [ItemChange(before: before, after: after)]
        var description = "\(verb) \(Self.quoted(before.title))"
        if done, let next = nextOccurrence(of: before, id: nextID, completedAt: now, in: timeZone) {
            changes += next.map { ItemChange(before: nil, after: $0) }
            description += " (next: \(next[0].id), due \(next[0].due!.worded(in: timeZone, now: now))"
            description += next.count > 1 ? ", with \(Self.counted(next.count - 1, "subtask")))" : ")"
        }
        if !done, let spawned = untouchedOccurrence(spawnedBy: before, in: timeZone) {
            // Reopening takes back what completing did: done, undone, done
            // must not leave two next occurrences.
            changes += spawned.map { ItemChange(before: $0, after: nil) }
            description += " (its next occurrence \(spawned[0].id) is gone)"
        }
        if done {
            let subtasks = completedDescendants(of: id, at: now)
            changes += subtasks
            if !subtasks.isEmpty { description += " and \(Self.counted(subtasks.count, "open subtask"))" }
        } else {
            let parents = reopenedAncestors(for: changes[0], at: now)
            changes += parents
            if !parents.isEmpty { description += " and \(Self.counted(parents.count, "parent"))" }
        }
        return UndoStep(description: description, changes: changes)
    }

    /// Sets or clears the due date (a repetition is anchored to the new one).
    public func setDue(_ id: TodoID, _ due: DueDate?, at now: Date, in timeZone: TimeZone) throws(TodoError) -> UndoStep? {
        let before = try item(id)
        guard before.due != due else { return nil }
        var after = before
        after.apply([.due(due)], at: now, in: timeZone)
        let verb = due == nil ? "clear the due date of" : "set the due date of"
        return UndoStep(description: "\(verb) \(Self.quoted(before.title))", changes: [ItemChange(before: before, after: after)])
    }

    /// Deletes an item with its subtasks, and takes them out of the other
    /// items' `depends`, as one step.
    public func delete(_ id: TodoID) throws(TodoError) -> UndoStep {
        let before = try item(id)
        let removed = [id] + descendants(of: id)
        var description = "delete \(Self.quoted(before.title))"
        if removed.count > 1 { description += " and \(Self.counted(removed.count - 1, "subtask"))" }
        return UndoStep(description: description, changes: removing(removed))
    }

    /// If any item is active, all become done; otherwise all become active.
    /// One step, however many items it touches.
    ///
    /// Recurring items marked done this way do not come back: toggle-all is
    /// a switch for the whole list, and pressing it again must reopen
    /// everything it closed (were next occurrences added, the list would
    /// never be all done, and each press would add more). Completing one
    /// item (`setDone`) brings it back.
    public func toggleAll(at now: Date, in timeZone: TimeZone) -> UndoStep? {
        let makeDone = items.contains { !$0.isDone }
        let changes = items.sorted { $0.id < $1.id }.compactMap { before -> ItemChange? in
            var after = before
            guard after.setDone(makeDone, at: now) else { return nil }
            after.fieldChangedAt[.done] = now
            return ItemChange(before: before, after: after)
        }
        guard !changes.isEmpty else { return nil }
        return UndoStep(description: makeDone ? "mark all done" : "mark all active", changes: changes)
    }

    /// Deletes every done item, as one step.
    ///
    /// A done item with an open subtask stays (it can only come from
    /// another program's file: completing a parent completes its subtasks,
    /// reopening a subtask reopens its parent), so no open item is lost.
    public func clearCompleted() -> UndoStep? {
        let done = items.filter { $0.isDone && !hasOpenDescendant($0.id) }.map(\.id).sorted()
        guard !done.isEmpty else { return nil }
        let changes = removing(done)
        let count = done.count
        return UndoStep(description: "clear \(count) completed \(count == 1 ? "item" : "items")", changes: changes)
    }

    // MARK: Applying

    /// Makes every change's `after` state true.
    public mutating func apply(_ step: UndoStep) {
        for change in step.changes {
            if let after = change.after {
                if let position = positions[after.id] {
                    links.remove(items[Int(position)])
                    links.insert(after)
                    items[Int(position)] = after
                } else {
                    links.insert(after)
                    positions[after.id] = Int32(items.count)
                    items.append(after)
                }
                if after.id >= nextID { nextID = TodoID(after.id.rawValue + 1) }
            } else if let position = positions[change.id] {
                links.remove(items[Int(position)])
                positions[change.id] = nil
                let last = items.removeLast()
                if Int(position) < items.count {
                    items[Int(position)] = last
                    positions[last.id] = position
                }
            }
        }
    }

    /// Puts `nextID` back after the add that raised it was taken back (its
    /// write failed), so memory and store agree on the next id.
    public mutating func restoreNextID(_ id: TodoID) {
        // Every item's id is below `nextID`, so only ids from `id` up can
        // still hold one: looked up one by one when they are fewer than the
        // items (a shared list's instance takes back its adds on every
        // commit it loses, and a scan of every item each time showed).
        let above = nextID.rawValue - id.rawValue
        guard above > 0 else {
            nextID = id
            return
        }
        if above <= Int64(items.count) {
            var candidate = nextID.rawValue - 1
            while candidate >= id.rawValue, positions[TodoID(candidate)] == nil { candidate -= 1 }
            nextID = TodoID(max(id.rawValue, candidate + 1))
        } else {
            nextID = max(id, TodoID((items.map(\.id.rawValue).max() ?? 0) + 1))
        }
    }

    /// Refuses edits that would leave an item with more than
    /// `TodoItem.maximumTags` tags, before applying any (applying tens of
    /// thousands of tags one by one would itself take seconds).
    private static func checkTagCount(of edits: [FieldEdit], on item: TodoItem) throws(TodoError) {
        let added = edits.count { if case .addTag = $0 { true } else { false } }
        guard item.tags.count + added > TodoItem.maximumTags else { return }
        var tags = item.tags
        for edit in edits {
            switch edit {
            case .addTag(let tag):
                if !tags.contains(where: { $0.lowercased() == tag.lowercased() }) { tags.insert(tag) }
                if tags.count > TodoItem.maximumTags { throw .tooManyTags(maximum: TodoItem.maximumTags) }
            case .removeTag(let tag): tags = tags.filter { $0.lowercased() != tag.lowercased() }
            default: break
            }
        }
    }

    /// `2 subtasks`, `1 subtask`.
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// Titles in step descriptions, in typographic quotes: add “buy milk”.
    static func quoted(_ title: String) -> String {
        "\u{201C}\(title)\u{201D}"
    }
}
