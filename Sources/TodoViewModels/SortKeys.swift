import Foundation
import TodoModel

/// The keys rows are ordered by, computed once per item state rather than on
/// every comparison: the folded title (case and diacritics removed) and the
/// due instant. Ties always fall back to the id, so every order is total and
/// a row's place is exact.
struct SortKeys {
    struct Key {
        let id: TodoID
        let foldedTitle: String
        let dueInstant: Date?
    }

    private var keys: [TodoID: Key] = [:]
    let timeZone: TimeZone

    init(timeZone: TimeZone, items: some Collection<TodoItem>) {
        self.timeZone = timeZone
        keys.reserveCapacity(items.count)
        for item in items { keys[item.id] = key(for: item) }
    }

    func key(for item: TodoItem) -> Key {
        Key(id: item.id, foldedTitle: Self.folded(item.title), dueInstant: item.due?.sortInstant(in: timeZone))
    }

    /// The title as the title sort compares it: case, diacritics and width
    /// folded. An ASCII title, the common case, only needs lower-casing, done
    /// here by byte: Foundation's folding was a third of building the keys of
    /// 100,000 items at start-up.
    static func folded(_ title: String) -> String {
        let utf8 = title.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            guard utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return title }
            return String(unsafeUninitializedCapacity: utf8.count) { buffer in
                for (index, byte) in utf8.enumerated() {
                    buffer[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
                }
                return utf8.count
            }
        }
        return title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// The key of the item with `id` as it is placed in the views now.
    subscript(id: TodoID) -> Key? { keys[id] }

    /// Records an item's new state (nil: deleted), after its old rows were removed
    /// from every view and before its new rows are placed.
    mutating func update(_ id: TodoID, to item: TodoItem?) {
        keys[id] = item.map(key(for:))
    }

    static func precedes(_ lhs: Key, _ rhs: Key, by sort: ListSort) -> Bool {
        switch sort {
        case .created:
            return lhs.id < rhs.id
        case .title:
            return lhs.foldedTitle != rhs.foldedTitle ? lhs.foldedTitle < rhs.foldedTitle : lhs.id < rhs.id
        case .due:
            switch (lhs.dueInstant, rhs.dueInstant) {
            case let (left?, right?): return left != right ? left < right : lhs.id < rhs.id
            case (.some, nil): return true  // dated before undated
            case (nil, .some): return false
            case (nil, nil): return lhs.id < rhs.id
            }
        }
    }
}
