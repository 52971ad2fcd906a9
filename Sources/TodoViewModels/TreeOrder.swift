import TodoModel
import TodoViewState

/// How a tree view orders its rows: every subtask right under its parent,
/// and the view's sort applied within each level (siblings compare by the
/// sort; a parent comes before everything under it).
///
/// The order is total and the same however it is reached: `precedes` for
/// placing one row by binary search, `arranged` for a whole view at once.
/// Keys hold each item's parent and depth as the view placed it (the
/// parent's own key is looked up in `SortKeys`), so comparing two rows
/// walks up at most their depth.
extension SortKeys {
    /// Whether `lhs` comes before `rhs` in a tree view sorted by `sort`.
    func treePrecedes(_ lhs: Key, _ rhs: Key, by sort: ListSort, grouping: ListGrouping?) -> Bool {
        if lhs.parent == nil && rhs.parent == nil { return Self.precedes(lhs, rhs, by: sort, grouping: grouping) }
        if lhs.id == rhs.id { return false }
        var left = lhs
        var right = rhs
        // Up to the same depth: an ancestor comes before what is under it.
        while left.depth > right.depth {
            guard let parent = left.parent.flatMap({ self[$0] }) else { break }
            if parent.id == right.id { return false }
            left = parent
        }
        while right.depth > left.depth {
            guard let parent = right.parent.flatMap({ self[$0] }) else { break }
            if parent.id == left.id { return true }
            right = parent
        }
        // Up to siblings, then by the sort.
        while left.parent != right.parent, left.depth == right.depth,
            let leftParent = left.parent.flatMap({ self[$0] }), let rightParent = right.parent.flatMap({ self[$0] })
        {
            left = leftParent
            right = rightParent
        }
        return Self.precedes(left, right, by: sort, grouping: grouping)
    }

    /// `sorted`, the rows of a view in flat order, rearranged as the tree:
    /// each row followed by the rows under it, in the order they came.
    /// Every row's parent must be among them (a tree view shows the path to
    /// each row it shows).
    func arranged(_ sorted: [TodoID]) -> [TodoID] {
        var children: [TodoID: [TodoID]] = [:]
        var roots: [TodoID] = []
        let shown = RowMembers(sorted)
        for id in sorted {
            if let parent = self[id]?.parent, shown.contains(parent) {
                children[parent, default: []].append(id)
            } else {
                roots.append(id)
            }
        }
        guard !children.isEmpty else { return sorted }
        var result: [TodoID] = []
        result.reserveCapacity(sorted.count)
        var stack = Array(roots.reversed())
        while let id = stack.popLast() {
            result.append(id)
            if let under = children[id] { stack.append(contentsOf: under.reversed()) }
        }
        return result
    }
}
