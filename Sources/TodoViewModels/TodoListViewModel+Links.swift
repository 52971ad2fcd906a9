import FoundationEssentials
import TodoModel
import TodoViewState

/// Changes that touch links between items (`depends`, `parent`) reach
/// further than the item changed: completing an item unblocks the items
/// that depend on it (their rows, urgency and `blocked` queries change),
/// and moving a parent moves every subtask under it, and the path rows
/// above it come or go. Such changes are placed here, in two passes per
/// view: every row the change may move is taken out by its key as placed,
/// the keys are computed again, and the rows that belong are put back,
/// parents first. Unlinked items, most of any list, keep the one-row path
/// of `applyItems`.
extension TodoListViewModel {
    /// Whether the change involves a link: the item had or has a parent or
    /// dependencies, or other items hang on it.
    func isLinked(_ change: ItemChange) -> Bool {
        func linked(_ item: TodoItem?) -> Bool {
            guard let item else { return false }
            return item.parent != nil || !item.depends.isEmpty
        }
        if linked(change.before) || linked(change.after) { return true }
        if keys[change.id]?.parent != nil { return true }
        let links = collection.links
        return !links.children(of: change.id).isEmpty || !links.dependents(of: change.id).isEmpty
    }

    /// Whether a linked change is of an item with nothing under it that
    /// keeps its parent, its place in the tree, its dependencies and its
    /// done state: no other row moves and no other item's standing turns,
    /// so its row is placed as an unlinked one is, and only the path above
    /// it is looked at again, in the views it comes into or leaves
    /// (`placePath`). Most edits in a list with trees are of such items.
    func isLeafEdit(_ change: ItemChange) -> Bool {
        guard let before = change.before, let after = change.after, before.parent == after.parent,
            before.depends == after.depends, before.isDone == after.isDone, collection.links.children(of: change.id).isEmpty,
            let placed = keys[change.id], placed.parent == collection.effectiveParent(of: after)
        else { return false }
        return placed.parent == nil || placed.depth == collection.ancestors(of: after).count
    }

    /// The path above a subtask whose row came into or left the view at
    /// `index` (`isLeafEdit`): its parents' rows come, go, or turn into
    /// path rows or back.
    func placePath(above id: TodoID, inView index: Dictionary<ViewID, ListView>.Index, rows: inout RowCache, now: Date,
        into operations: inout [ViewID: [RowOperation]])
    {
        guard views.values[index].isTree, let item = collection[id], item.parent != nil else { return }
        let path = collection.ancestors(of: item)
        guard !path.isEmpty else { return }
        placeRows(path.reversed(), inView: index, moved: [], reworded: [], paths: Set(path), rows: &rows, now: now, into: &operations)
    }

    /// The items, besides those changed, whose blocked or blocking state
    /// the changes may turn: what they depend on, before and after, and
    /// what depends on them.
    ///
    /// Only a change of existence, of done, or of `depends` turns them: a
    /// new title or note on an item a thousand others wait for reaches
    /// none of them.
    func linkNeighbours(of changes: [ItemChange]) -> Set<TodoID> {
        var neighbours: Set<TodoID> = []
        for change in changes {
            if let before = change.before, let after = change.after, before.isDone == after.isDone, before.depends == after.depends {
                continue
            }
            for item in [change.before, change.after].compactMap({ $0 }) { neighbours.formUnion(item.depends) }
            neighbours.formUnion(collection.links.dependents(of: change.id))
        }
        for change in changes { neighbours.remove(change.id) }
        return neighbours.filter { collection.contains($0) }
    }

    /// Places linked `changes` (already applied to the collection) in
    /// every view, with the items they reach; updates the counters.
    ///
    /// The items reached are of two sorts. Those that *move*: the items
    /// changed, those whose blocked or blocking state the change may turn,
    /// and every subtask under them (its place follows its parent's). And
    /// those only *above* them: the paths, as placed and as they are now,
    /// whose keys do not change but whose row may come or go (shown only
    /// as the path to a matching subtask).
    func applyLinked(_ changes: [ItemChange], at now: Date, viewClock: ViewClock, into operations: inout [ViewID: [RowOperation]]) {
        var before: [TodoID: TodoItem?] = [:]
        for change in changes where before[change.id] == nil { before[change.id] = change.before }
        var base = Set(changes.map(\.id))
        for id in linkNeighbours(of: changes) where before[id] == nil { base.insert(id) }
        // Every item whose parent names one of them moves with it, also
        // one the tree no longer places under it (its parent gone, a cycle).
        var moving = base
        for id in base { moving.formUnion(collection.linkedBelow(id)) }
        var above: Set<TodoID> = []
        for id in base {
            var seen: Set<TodoID> = [id]
            var parent = keys[id]?.parent
            while let ancestor = parent, seen.insert(ancestor).inserted {
                above.insert(ancestor)
                parent = keys[ancestor]?.parent
            }
            if let item = collection[id] { above.formUnion(collection.ancestors(of: item)) }
        }
        above.subtract(moving)
        for id in moving where before[id] == nil { before[id] = collection[id] }
        let oldFacts = Dictionary(uniqueKeysWithValues: moving.map { ($0, keys[$0]?.facts ?? .none) })
        let movingInOrder = moving.sorted()

        // The new keys, not yet in the table (rows are found by their old
        // ones); the natural-order title, the costliest part of a key, is
        // kept when the title is.
        var newKeys: [TodoID: SortKeys.Key] = [:]
        for id in movingInOrder {
            guard let item = collection[id] else { continue }
            let keptTitle = (before[id] ?? nil)?.title == item.title ? keys[id] : nil
            newKeys[id] = keys.key(for: item, in: collection, keepingTitleOf: keptTitle)
        }
        // Parents before their subtasks, by where they are now.
        let placing = newKeys.keys.sorted {
            let (left, right) = (newKeys[$0]!.depth, newKeys[$1]!.depth)
            return left != right ? left < right : $0 < $1
        }
        let indices = viewIndices
        // Per view, the rows whose place changes: an item added or removed,
        // one its view's sort or the tree places elsewhere, and everything
        // under one that moves. Out with them, by their keys as placed.
        var movedInView: [Set<TodoID>] = []
        for index in indices {
            let (sort, grouping) = (views.values[index].sort, views.values[index].definition.grouping)
            var moved = Set(movingInOrder.filter { newKeys[$0] == nil || keys[$0] == nil })
            for id in placing {
                guard let old = keys[id], let new = newKeys[id] else { continue }
                if !SortKeys.placeAlike(old, new, by: sort, grouping: grouping) || new.parent.map(moved.contains) == true {
                    moved.insert(id)
                }
            }
            for id in movingInOrder where moved.contains(id) && views.values[index].shows(id) {
                if let at = views.values[index].takeOut(id, keys: keys) {
                    operations[views.keys[index], default: []].append(.remove(index: at))
                }
            }
            movedInView.append(moved)
        }
        for id in movingInOrder { keys.set(id, to: newKeys[id]) }

        var rows = RowCache()
        // Whether a row that stays in place reads differently now.
        let reworded = Set(movingInOrder.filter { id in
            (before[id] ?? nil) != collection[id] || oldFacts[id] != keys[id]?.facts
        })
        // Counted as before unless the item or its standing changed.
        let recounted = movingInOrder.filter(reworded.contains).map { itemID in
            (ItemChange(before: before[itemID] ?? nil, after: collection[itemID]), oldFacts[itemID] ?? .none, keys[itemID]?.facts ?? .none)
        }
        for (position, index) in indices.enumerated() {
            for (change, beforeFacts, afterFacts) in recounted {
                views.values[index].recount(change, beforeFacts: beforeFacts, afterFacts: afterFacts, clock: viewClock)
            }
            placeRows(
                placing + above.sorted(), inView: index, moved: movedInView[position], reworded: reworded, paths: above, rows: &rows,
                now: now, into: &operations)
        }
    }

    /// Puts the rows of `itemIDs` (parents first, keys current) where they
    /// belong in the view at `index`: each that matches the view's query,
    /// or is the path to a subtask that does. A row in `moved` was taken
    /// out and goes back by its new key; any other stays where it is and
    /// only comes, goes, turns from a match into a path row or back, or,
    /// when in `reworded`, reads differently. An item with nothing under it
    /// that is not in `reworded` or `paths` matches as it did, and its row,
    /// unless it was a path row, is left as it is.
    func placeRows(
        _ itemIDs: [TodoID], inView index: Dictionary<ViewID, ListView>.Index, moved: Set<TodoID>, reworded: Set<TodoID>,
        paths: Set<TodoID>, rows: inout RowCache, now: Date, into operations: inout [ViewID: [RowOperation]]
    ) {
        let id = views.keys[index]
        // Decided with the view's matcher rather than the view: a copy of
        // the view held while it changes would copy its whole order.
        let matcher = views.values[index].matcher
        var matched: [TodoID: Bool] = [:]
        func matches(_ itemID: TodoID) -> Bool {
            if let known = matched[itemID] { return known }
            guard let key = keys[itemID] else { return false }
            let result = collection.withItem(itemID) { matcher.includes($0, facts: key.facts) } ?? false
            matched[itemID] = result
            return result
        }
        let tree = views.values[index].isTree
        let grouped = views.values[index].definition.grouping != nil
        /// Nil: not shown; false: shown for itself; true: as a path.
        func shownAs(_ itemID: TodoID) -> Bool? {
            if matches(itemID) { return false }
            guard tree, !collection.links.children(of: itemID).isEmpty else { return nil }
            return collection.descendants(of: itemID).contains(where: matches) ? true : nil
        }
        func row(_ itemID: TodoID, context: Bool) -> TodoRow {
            rows.row(itemID, grouped: grouped, tree: tree, context: context) {
                self.row(collection[itemID]!, now: now, grouped: grouped, tree: tree, context: context)
            }
        }
        for itemID in itemIDs where collection.contains(itemID) {
            if !moved.contains(itemID) && !reworded.contains(itemID) && !paths.contains(itemID)
                && collection.links.children(of: itemID).isEmpty && !views.values[index].contextRows.contains(itemID)
            {
                continue
            }
            let wanted = shownAs(itemID)
            if moved.contains(itemID) {
                guard let context = wanted else { continue }
                let at = views.values[index].putIn(itemID, context: context, keys: keys)
                operations[id, default: []].append(.insert(index: at, row: row(itemID, context: context)))
                continue
            }
            let wasShown = views.values[index].shows(itemID)
            let wasContext = views.values[index].contextRows.contains(itemID)
            switch (wasShown, wanted) {
            case (false, nil): continue
            case (true, nil):
                if let at = views.values[index].takeOut(itemID, keys: keys) {
                    operations[id, default: []].append(.remove(index: at))
                }
            case (false, let context?):
                let at = views.values[index].putIn(itemID, context: context, keys: keys)
                operations[id, default: []].append(.insert(index: at, row: row(itemID, context: context)))
            case (true, let context?):
                guard context != wasContext || reworded.contains(itemID),
                    let at = views.values[index].markContext(itemID, context, keys: keys)
                else { continue }
                operations[id, default: []].append(.update(index: at, row: row(itemID, context: context)))
            }
        }
    }
}

/// Rows built for one change, by item and the kind of view (grouped, tree,
/// path row): a row reads the same in every view of the same kind.
struct RowCache {
    private struct Kind: Hashable {
        var id: TodoID
        var grouped, tree, context: Bool
    }

    private var rows: [Kind: TodoRow] = [:]

    mutating func row(_ id: TodoID, grouped: Bool, tree: Bool, context: Bool, build: () -> TodoRow) -> TodoRow {
        let kind = Kind(id: id, grouped: grouped, tree: tree, context: context)
        if let row = rows[kind] { return row }
        let row = build()
        rows[kind] = row
        return row
    }
}
