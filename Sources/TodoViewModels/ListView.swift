import Foundation
import TodoModel

/// One list view instance: a filter, a sort, and the ids of the rows it shows,
/// in order. Several can exist at once (a shared view every terminal watches,
/// a client's own view); each turns item changes into its own row edits.
///
/// An edit to one item costs a binary search and a move within one chunk of
/// the order (`RowOrder`), in place: not a re-sort, a re-format of every row,
/// or a copy of the order.
struct ListView {
    private(set) var filter: ListFilter
    private(set) var sort: ListSort
    private(set) var order = RowOrder()

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

    func includes(_ item: TodoItem?) -> Bool { item.map(includes) ?? false }

    mutating func rebuild(_ items: TodoCollection, keys: SortKeys) {
        let sort = self.sort
        // Sort the keys themselves, not ids looked up in a dictionary per comparison.
        order = RowOrder(
            items.items.values.filter(includes).compactMap { keys[$0.id] }
                .sorted { SortKeys.precedes($0, $1, by: sort) }
                .map(\.id))
    }

    mutating func setOptions(filter: ListFilter, sort: ListSort, items: TodoCollection, keys: SortKeys) {
        self.filter = filter
        self.sort = sort
        rebuild(items, keys: keys)
    }

    /// Where one changed item's row went in this view.
    enum Placement: Equatable {
        case unchanged
        case inserted(Int)
        case removed(Int)
        /// Same place, new content.
        case updated(Int)
        case moved(from: Int, to: Int)
    }

    /// Moves the row of a changed item: `change.before` is placed by its old
    /// key (`keys` still holds it), `newKey` is the key of `change.after`.
    /// A row whose new key still falls between its neighbours stays where it
    /// is and is only updated.
    mutating func place(_ change: ItemChange, newKey: SortKeys.Key?, keys: SortKeys) -> Placement {
        let wasShown = includes(change.before)
        let isShown = includes(change.after)
        var old: Int?
        if wasShown, let key = keys[change.id] {
            old = index(ofKey: key, keys: keys)
        }
        switch (old, isShown ? newKey : nil) {
        case (nil, nil):
            return .unchanged
        case (let old?, nil):
            order.remove(at: old)
            return .removed(old)
        case (nil, let key?):
            let new = insertionIndex(for: key, keys: keys)
            order.insert(change.id, at: new)
            return .inserted(new)
        case (let old?, let key?):
            let fitsAfterPrevious = old == 0 || SortKeys.precedes(keys[order[old - 1]]!, key, by: sort)
            let fitsBeforeNext = old == order.count - 1 || SortKeys.precedes(key, keys[order[old + 1]]!, by: sort)
            if fitsAfterPrevious && fitsBeforeNext { return .updated(old) }
            order.remove(at: old)
            let new = insertionIndex(for: key, keys: keys)
            order.insert(change.id, at: new)
            return .moved(from: old, to: new)
        }
    }

    /// Where the row of `item` is, or nil when this view does not show it.
    func index(of item: TodoItem, keys: SortKeys) -> Int? {
        guard includes(item), let key = keys[item.id] else { return nil }
        return index(ofKey: key, keys: keys)
    }

    private func index(ofKey key: SortKeys.Key, keys: SortKeys) -> Int? {
        let index = insertionIndex(for: key, keys: keys)
        if index < order.count && order[index] == key.id { return index }
        // Not where its key says: the keys and the order disagree, which is
        // a bug; fall back to a scan rather than corrupt the view.
        assertionFailure("row \(key.id) not at its sorted place")
        return order.enumerated().first { $0.element == key.id }?.offset
    }

    /// The first position whose row does not precede `key`.
    private func insertionIndex(for key: SortKeys.Key, keys: SortKeys) -> Int {
        let sort = self.sort
        return order.partitionPoint { SortKeys.precedes(keys[$0]!, key, by: sort) }
    }
}
