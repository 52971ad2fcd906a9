import FoundationEssentials

/// The rules of links between items: what `depends` and `parent` may name,
/// and what completing, reopening and removing carry along.
///
/// The one rule for a parent with open subtasks: **its subtasks go with
/// it.** Completing a parent completes its open subtasks; removing a parent
/// removes its subtasks; reopening a subtask, or adding one under a done
/// parent, reopens the parent. Each is one step, undone at once. Removing
/// an item also takes it out of every other item's `depends`.
extension TodoCollection {
    // MARK: Reading links

    /// The parent the tree places `item` under: its `parent`, when that item
    /// exists and following parents from it does not come back to `item`
    /// (a cycle another program wrote: its items are then roots).
    public func effectiveParent(of item: TodoItem) -> TodoID? {
        guard let parent = item.parent, parent != item.id, self[parent] != nil else { return nil }
        // Trees are shallow: the ids walked are kept in an array, and a set
        // only past 32 levels.
        var walked: [TodoID] = [parent]
        var seen: Set<TodoID>?
        var current = parent
        while let next = withItem(current, \.parent) ?? nil {
            if next == item.id { return nil }
            if seen == nil && walked.count >= 32 { seen = Set(walked) }
            if seen != nil {
                guard seen!.insert(next).inserted else { break }
            } else {
                guard !walked.contains(next) else { break }
                walked.append(next)
            }
            current = next
        }
        return parent
    }

    /// The ancestors of `item` in the tree, its parent first.
    public func ancestors(of item: TodoItem) -> [TodoID] {
        var chain: [TodoID] = []
        var current = item
        while let parent = effectiveParent(of: current), let next = self[parent], !chain.contains(parent) {
            chain.append(parent)
            current = next
        }
        return chain
    }

    /// Every item under `id` in the tree, parents before their children.
    public func descendants(of id: TodoID) -> [TodoID] {
        var found: [TodoID] = []
        var seen: Set<TodoID> = [id]
        var queue = [id]
        while let next = queue.popLast() {
            for child in links.children(of: next).sorted() where seen.insert(child).inserted {
                guard let item = self[child], effectiveParent(of: item) == next else { continue }
                found.append(child)
                queue.append(child)
            }
        }
        return found
    }

    /// Whether an open item is anywhere under `id`.
    public func hasOpenDescendant(_ id: TodoID) -> Bool {
        descendants(of: id).contains { self[$0]?.isDone == false }
    }

    /// Open, and depending on an item that exists and is open.
    public func isBlocked(_ item: TodoItem) -> Bool {
        !item.isDone && item.depends.contains { self[$0]?.isDone == false }
    }

    /// Open, and an open item depends on it.
    public func isBlocking(_ item: TodoItem) -> Bool {
        !item.isDone && links.dependents(of: item.id).contains { self[$0]?.isDone == false }
    }

    // MARK: Checking links

    /// Refuses links `after` would newly make to a missing item, to itself,
    /// or round a cycle. Links it already had are not judged again (an
    /// imported item may hold a dangling one, kept as it came).
    func checkLinks(of after: TodoItem, before: TodoItem?) throws(TodoError) {
        let oldDepends = Set(before?.depends ?? [])
        for target in after.depends where !oldDepends.contains(target) {
            try checkTarget(target, of: after.id, field: FieldDeclaration.depends.name)
            if let path = dependencyPath(from: target, to: after.id, replacing: after) {
                throw .invalidLink(field: FieldDeclaration.depends.name, problem: .cycle([after.id] + path))
            }
        }
        if let parent = after.parent, parent != before?.parent {
            try checkTarget(parent, of: after.id, field: FieldDeclaration.parent.name)
            var path = [after.id, parent]
            var current = parent
            while let next = self[current]?.parent, path.count <= count + 1 {
                path.append(next)
                if next == after.id { throw .invalidLink(field: FieldDeclaration.parent.name, problem: .cycle(path)) }
                if path.dropLast().contains(next) { break }
                current = next
            }
        }
    }

    private func checkTarget(_ target: TodoID, of id: TodoID, field: String) throws(TodoError) {
        if target == id { throw .invalidLink(field: field, problem: .itself(id)) }
        if self[target] == nil { throw .invalidLink(field: field, problem: .missing(target)) }
    }

    /// The ids from `start` along `depends` to `goal` (both included), with
    /// `replacing` standing for the stored item of its id; nil when there is
    /// no such path. Breadth first, so the cycle named is a shortest one.
    private func dependencyPath(from start: TodoID, to goal: TodoID, replacing: TodoItem) -> [TodoID]? {
        var cameFrom: [TodoID: TodoID] = [:]
        var seen: Set<TodoID> = [start]
        var frontier = [start]
        while !frontier.isEmpty {
            var next: [TodoID] = []
            for id in frontier {
                if id == goal {
                    var path = [id]
                    while let previous = cameFrom[path[0]] { path.insert(previous, at: 0) }
                    return path
                }
                let depends = id == replacing.id ? replacing.depends : (self[id]?.depends ?? [])
                for target in depends where seen.insert(target).inserted {
                    cameFrom[target] = id
                    next.append(target)
                }
            }
            frontier = next
        }
        return nil
    }

    // MARK: What a change carries along

    /// The done ancestors of `change.after`, reopened, when it is open and
    /// now under them (added, reopened, or moved under a done parent).
    func reopenedAncestors(for change: ItemChange, at now: Date) -> [ItemChange] {
        guard let after = change.after, !after.isDone, after.parent != nil else { return [] }
        if let before = change.before, !before.isDone, before.parent == after.parent { return [] }
        var changes: [ItemChange] = []
        var current = after
        var seen: Set<TodoID> = [after.id]
        while let parent = current.parent, seen.insert(parent).inserted, let item = self[parent] {
            if item.isDone {
                var reopened = item
                _ = reopened.setDone(false, at: now)
                reopened.fieldChangedAt[.done] = now
                changes.append(ItemChange(before: item, after: reopened))
            }
            current = item
        }
        return changes
    }

    /// The open subtasks under `id`, completed at `now`. They do not bring
    /// their next occurrence: their parent is what was completed.
    func completedDescendants(of id: TodoID, at now: Date) -> [ItemChange] {
        descendants(of: id).compactMap { descendant -> ItemChange? in
            guard let item = self[descendant], !item.isDone else { return nil }
            var completed = item
            _ = completed.setDone(true, at: now)
            completed.fieldChangedAt[.done] = now
            return ItemChange(before: item, after: completed)
        }
    }

    /// Removes the items `ids`, and takes them out of the `depends` of the
    /// items that stay.
    func removing(_ ids: [TodoID]) -> [ItemChange] {
        let removed = Set(ids)
        var changes = ids.compactMap { id in self[id].map { ItemChange(before: $0, after: nil) } }
        var dependents: Set<TodoID> = []
        for id in ids { dependents.formUnion(links.dependents(of: id)) }
        for id in dependents.subtracting(removed).sorted() {
            guard let before = self[id] else { continue }
            var after = before
            let kept = before.depends.filter { !removed.contains($0) }
            after.values[FieldDeclaration.depends.name] = kept.isEmpty ? nil : .items(kept)
            changes.append(ItemChange(before: before, after: after))
        }
        return changes
    }
}
