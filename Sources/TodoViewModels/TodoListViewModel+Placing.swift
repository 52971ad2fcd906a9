import FoundationEssentials
import TodoModel
import TodoViewState

/// Placing item changes in every view: the one-row path most edits take,
/// the whole-view rebuild past `resetThreshold` changes, and the hand-over
/// to `applyLinked` for changes that reach beyond their item.
extension TodoListViewModel {
    /// Applies item changes to the collection, the counters, the reminders
    /// and every view, in place, appending each view's row edits: rows
    /// worded at `now`, items judged at the last tick (`judgingClock`).
    func applyItems(_ changes: [ItemChange], at now: Date, into operations: inout [ViewID: [RowOperation]]) {
        collection.apply(UndoStep(description: "", changes: changes))
        let viewClock = judgingClock
        for change in changes {
            if change.before?.isDone == true { completedCount -= 1 }
            if change.after?.isDone == true { completedCount += 1 }
            reminders.itemChanged(change.id, to: change.after)
        }
        cachedAlerts = nil
        cachedDesktop = nil
        if changes.count > Self.resetThreshold {
            // Re-sorting each view beats placing thousands of rows one by one.
            // With links, any key may have changed (a subtask's depth, a
            // dependent's urgency): all are computed again.
            let linked = changes.contains { isLinked($0) }
            if linked {
                keys.recompute(today: keys.today, titles: keys.hasTitles, items: collection)
            } else {
                for change in changes { keys.update(change.id, to: change.after, in: collection) }
            }
            for index in viewIndices {
                let shownBefore = changes.contains { views.values[index].shows($0.id) }
                views.values[index].rebuild(collection, keys: keys, clock: viewClock)
                if linked || shownBefore || changes.contains(where: { views.values[index].shows($0.id) }) {
                    operations[views.keys[index], default: []].append(.reset(rows: rows(of: views.values[index], now: now)))
                }
            }
            return
        }
        if changes.contains(where: { isLinked($0) && !isLeafEdit($0) }) {
            applyLinked(changes, at: now, viewClock: viewClock, into: &operations)
            return
        }
        var pathRows = RowCache()
        for change in changes {
            let inTree = keys[change.id]?.parent != nil
            // Most edits keep the title: its natural-order key, the costliest
            // part of a sort key, is then the one the item already has.
            let keptTitle = change.before.flatMap { before in change.after?.title == before.title ? keys[change.id] : nil }
            let newKey = change.after.map { keys.key(for: $0, in: collection, keepingTitleOf: keptTitle) }
            let oldFacts = keys[change.id]?.facts ?? .none
            // By grouped, then tree (a subtask's row says its depth there).
            var newRows: [[Bool]: TodoRow] = [:]
            func newRow(grouped: Bool, tree: Bool) -> TodoRow {
                let kind = [grouped, inTree && tree]
                if let row = newRows[kind] { return row }
                let row = self.row(change.after!, now: now, grouped: grouped, key: newKey, tree: inTree && tree)
                newRows[kind] = row
                if kind == [false, false], changes.count == 1 { lastPlainRow = (change.id, now, row) }
                return row
            }
            // Views a subtask came into or left: the path above it follows,
            // once its new key is in place.
            var pathViews: [Dictionary<ViewID, ListView>.Index] = []
            for index in viewIndices {
                // In place: `views.values[index]` is mutated where it lives.
                let matches = views.values[index].recount(
                    change, beforeFacts: oldFacts, afterFacts: newKey?.facts ?? .none, clock: viewClock)
                let placement = views.values[index].place(change, afterMatchesQuery: matches, newKey: newKey, keys: keys)
                let grouped = views.values[index].definition.grouping != nil
                let tree = views.values[index].isTree
                let operation: RowOperation
                switch placement {
                case .unchanged: continue
                case .inserted(let at): operation = .insert(index: at, row: newRow(grouped: grouped, tree: tree))
                case .removed(let at): operation = .remove(index: at)
                case .updated(let at): operation = .update(index: at, row: newRow(grouped: grouped, tree: tree))
                case .moved(let from, let to): operation = .move(from: from, to: to, row: newRow(grouped: grouped, tree: tree))
                }
                operations[views.keys[index], default: []].append(operation)
                if inTree, tree {
                    if case .inserted = placement { pathViews.append(index) }
                    if case .removed = placement { pathViews.append(index) }
                }
            }
            keys.set(change.id, to: newKey)
            for index in pathViews { placePath(above: change.id, inView: index, rows: &pathRows, now: now, into: &operations) }
        }
    }

    /// The positions of the views in `views`, to change each in place.
    /// Looping over `views.values.indices` instead holds a reference to the
    /// dictionary's storage while the views change, and the first change
    /// then copied every view, its rows and its membership bits.
    var viewIndices: [Dictionary<ViewID, ListView>.Index] {
        var indices: [Dictionary<ViewID, ListView>.Index] = []
        indices.reserveCapacity(views.count)
        var index = views.startIndex
        while index != views.endIndex {
            indices.append(index)
            views.formIndex(after: &index)
        }
        return indices
    }
}
