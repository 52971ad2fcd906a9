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
    /// Nor when the parent is `ItemLinks.maximumDepth` levels down or more
    /// (a chain another program wrote): the tree stops there.
    public func effectiveParent(of item: TodoItem) -> TodoID? {
        guard let parent = item.parent, parent != item.id, contains(parent) else { return nil }
        // Up from the parent to the top: a root, or the first item of a
        // cycle above (whose items are all at the top). Where the top is,
        // is the parent's depth. At most `maximumDepth` steps: an array is
        // set enough.
        var walked: [TodoID] = [parent]
        while let next = withItem(walked[walked.count - 1], \.parent) ?? nil, contains(next) {
            if next == item.id { return nil }  // the item is in a cycle itself
            if walked.contains(next) { break }
            walked.append(next)
            if walked.count > ItemLinks.maximumDepth { return nil }
        }
        let last = walked[walked.count - 1]
        let top = (withItem(last, \.parent) ?? nil).flatMap { walked.firstIndex(of: $0) } ?? walked.count - 1
        return top < ItemLinks.maximumDepth ? parent : nil
    }

    /// Every item whose `parent` names `id`, or one of those, whatever the
    /// tree makes of it (a missing parent, a cycle, the depth limit): what
    /// may move when `id` does.
    public func linkedBelow(_ id: TodoID) -> Set<TodoID> {
        var found: Set<TodoID> = []
        var queue = [id]
        while let next = queue.popLast() {
            for child in links.children(of: next) where child != id && found.insert(child).inserted { queue.append(child) }
        }
        return found
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
        let newTargets = after.depends.filter { !oldDepends.contains($0) }
        if !newTargets.isEmpty {
            let field = FieldDeclaration.depends.name
            if after.depends.count > FieldKind.maximumLinks {
                throw .invalidLink(field: field, problem: .tooMany(maximum: FieldKind.maximumLinks))
            }
            for target in newTargets { try checkTarget(target, of: after.id, field: field) }
            if let path = dependencyPath(from: newTargets, to: after.id, replacing: after) {
                throw .invalidLink(field: field, problem: .cycle([after.id] + path))
            }
        }
        if let parent = after.parent, parent != before?.parent {
            let field = FieldDeclaration.parent.name
            try checkTarget(parent, of: after.id, field: field)
            var path = [after.id, parent]
            var seen: Set<TodoID> = [parent]
            var current = parent
            while let next = self[current]?.parent {
                path.append(next)
                if next == after.id { throw .invalidLink(field: field, problem: .cycle(path)) }
                guard seen.insert(next).inserted else { break }
                current = next
            }
            // The parent's depth, one for the item, and its deepest subtask.
            let parentDepth = self[parent].map { ancestors(of: $0).count } ?? 0
            if parentDepth + 1 + height(below: after.id) > ItemLinks.maximumDepth {
                throw .invalidLink(field: field, problem: .tooDeep(maximum: ItemLinks.maximumDepth))
            }
        }
    }

    /// How many levels of subtasks are under `id` (0 for none).
    private func height(below id: TodoID) -> Int {
        var level = 0
        var frontier = [id]
        var seen: Set<TodoID> = [id]
        while true {
            let next = frontier.flatMap { links.children(of: $0) }.filter { seen.insert($0).inserted }
            guard !next.isEmpty else { return level }
            level += 1
            frontier = next
        }
    }

    private func checkTarget(_ target: TodoID, of id: TodoID, field: String) throws(TodoError) {
        if target == id { throw .invalidLink(field: field, problem: .itself(id)) }
        if self[target] == nil { throw .invalidLink(field: field, problem: .missing(target)) }
    }

    /// The ids from one of `starts` along `depends` to `goal` (both
    /// included), with `replacing` standing for the stored item of its id;
    /// nil when there is no such path. One breadth-first walk from all of
    /// them, so the cycle named is a shortest one and each item is visited once.
    private func dependencyPath(from starts: [TodoID], to goal: TodoID, replacing: TodoItem) -> [TodoID]? {
        var cameFrom: [TodoID: TodoID] = [:]
        var seen = Set(starts)
        var frontier = Array(seen).sorted()
        while !frontier.isEmpty {
            var next: [TodoID] = []
            for id in frontier {
                if id == goal {
                    var path = [id]
                    while let previous = cameFrom[path[path.count - 1]] { path.append(previous) }
                    return path.reversed()
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

extension TodoCollection {
    /// Removes exactly the items `ids`, nothing under them: their subtasks
    /// stay, at the top of the list (or under the parent still theirs), and
    /// other items no longer depend on them. What a sync does with items a
    /// server no longer has: a server deleted those, and never more (a
    /// calendar that deletes a parent may keep its subtasks).
    public func removingOnly(_ ids: [TodoID]) -> [ItemChange] {
        let removed = Set(ids)
        var changes = ids.compactMap { id in self[id].map { ItemChange(before: $0, after: nil) } }
        var touched: Set<TodoID> = []
        for id in ids {
            touched.formUnion(links.dependents(of: id))
            touched.formUnion(links.children(of: id))
        }
        for id in touched.subtracting(removed).sorted() {
            guard let before = self[id] else { continue }
            var after = before
            let kept = before.depends.filter { !removed.contains($0) }
            after.values[FieldDeclaration.depends.name] = kept.isEmpty ? nil : .items(kept)
            if let parent = before.parent, removed.contains(parent) { after.values[FieldDeclaration.parent.name] = nil }
            if after != before { changes.append(ItemChange(before: before, after: after)) }
        }
        return changes
    }
}
