import Foundation
import TodoModel

/// One list view instance: a filter, a sort, and the ids of the rows it shows,
/// in order. Several can exist at once (a shared view every terminal watches,
/// a client's own view); each turns item changes into its own row edits.
///
/// An edit to one item costs a binary search and an array insert/remove here,
/// not a re-sort or re-format of every row.
struct ListView {
    private(set) var filter: ListFilter
    private(set) var sort: ListSort
    private(set) var order: [TodoID] = []

    init(filter: ListFilter, sort: ListSort, items: TodoCollection, keys: SortKeys) {
        self.filter = filter
        self.sort = sort
        rebuild(items, keys: keys)
    }

    func includes(_ item: TodoItem) -> Bool {
        switch filter {
        case .all: true
        case .active: !item.isDone
        case .completed: item.isDone
        }
    }

    mutating func rebuild(_ items: TodoCollection, keys: SortKeys) {
        let sort = self.sort
        // Sort the keys themselves, not ids looked up in a dictionary per comparison.
        order = items.items.values.filter(includes).compactMap { keys[$0.id] }
            .sorted { SortKeys.precedes($0, $1, by: sort) }
            .map(\.id)
    }

    mutating func setOptions(filter: ListFilter, sort: ListSort, items: TodoCollection, keys: SortKeys) {
        self.filter = filter
        self.sort = sort
        rebuild(items, keys: keys)
    }

    /// Removes the row of `item` (its state before a change, keys as placed);
    /// returns where it was, or nil when this view did not show it.
    mutating func removeRow(of item: TodoItem?, keys: SortKeys) -> Int? {
        guard let item, includes(item), let key = keys[item.id] else { return nil }
        let index = insertionIndex(for: key, keys: keys)
        guard index < order.count, order[index] == item.id else {
            // Not where its key says: the keys and the order disagree, which
            // is a bug; fall back to a scan rather than corrupt the view.
            assertionFailure("row \(item.id) not at its sorted place")
            guard let found = order.firstIndex(of: item.id) else { return nil }
            order.remove(at: found)
            return found
        }
        order.remove(at: index)
        return index
    }

    /// Places the row of `item` (its state after a change, keys updated);
    /// returns where, or nil when this view does not show it.
    mutating func insertRow(of item: TodoItem?, keys: SortKeys) -> Int? {
        guard let item, includes(item), let key = keys[item.id] else { return nil }
        let index = insertionIndex(for: key, keys: keys)
        order.insert(item.id, at: index)
        return index
    }

    /// Where the row of `item` is, or nil when this view does not show it.
    func index(of item: TodoItem, keys: SortKeys) -> Int? {
        guard includes(item), let key = keys[item.id] else { return nil }
        let index = insertionIndex(for: key, keys: keys)
        return index < order.count && order[index] == item.id ? index : nil
    }

    /// The first position whose row does not precede `key`.
    private func insertionIndex(for key: SortKeys.Key, keys: SortKeys) -> Int {
        var low = 0
        var high = order.count
        while low < high {
            let middle = (low + high) / 2
            if SortKeys.precedes(keys[order[middle]]!, key, by: sort) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
