import FoundationEssentials
import TodoModel
import TodoViewState

/// The keys rows are ordered by, computed once per item state rather than on
/// every comparison. Ties always fall back to the id, so every order is
/// total and a row's place is exact.
///
/// Two keys depend on more than the item: urgency counts days from today,
/// so all keys are computed for one day (`today`) and computed again when
/// the day changes; and the natural-order title key (an array of integers
/// per title) is only built once some view sorts by title.
struct SortKeys {
    /// A class, not a struct: binary searches and sorts pass keys around by
    /// the hundred thousand, and a struct with a title, a project and its
    /// name would be copied with a retain and a release of each.
    final class Key {
        let id: TodoID
        let createdAt: Date
        let modifiedAt: Date
        /// The title in natural order; the empty title's until some view
        /// sorts by title (every key then ties, as no view compares them).
        let title: NaturalSortKey
        /// The start of `title` for sorting a whole view (`SortWords`).
        let titleWords: (UInt64, UInt64, UInt64)
        let dueInstant: Date?
        /// 3 for H, 2 for M, 1 for L, 0 for none.
        let priorityRank: Int
        /// The project folded for comparing; nil for none.
        let project: String?
        let urgency: Double
        /// The project as written (for grouping headers).
        let projectName: String?
        /// The declared fields' values as sorts compare them, by field name;
        /// empty (and shared) for the many items that have none.
        let fields: [String: FieldSortValue]
        /// Where the item stands among the others when it was placed:
        /// blocked, blocking (queries read them from here, so that an item
        /// is taken out of a view as it was judged when it was put in).
        let facts: LinkFacts
        /// The parent the tree places it under (`TodoCollection.effectiveParent`), and how deep.
        let parent: TodoID?
        let depth: Int

        init(
            id: TodoID, createdAt: Date, modifiedAt: Date, title: NaturalSortKey, dueInstant: Date?, priorityRank: Int,
            project: String?, urgency: Double, projectName: String?, fields: [String: FieldSortValue] = [:],
            facts: LinkFacts = .none, parent: TodoID? = nil, depth: Int = 0
        ) {
            self.facts = facts
            self.parent = parent
            self.depth = depth
            self.id = id
            self.createdAt = createdAt
            self.modifiedAt = modifiedAt
            self.title = title
            titleWords = SortWords.titleWords(title)
            self.dueInstant = dueInstant
            self.priorityRank = priorityRank
            self.project = project
            self.urgency = urgency
            self.projectName = projectName
            self.fields = fields
        }
    }

    /// A declared field's value as a sort key: dates as the instant they
    /// begin (as due dates sort), numbers and durations as numbers, text
    /// folded as projects are. The cases are in the order a value of one
    /// sorts before a value of the other, which only a field whose kind
    /// changed (its values then orphans of another kind) can hold.
    enum FieldSortValue: Comparable {
        case number(Double)
        case text(String)
    }

    /// By id (a dense table: binary searches read a key per step).
    private var keys = TodoIDTable<Key>()
    let timeZone: TimeZone
    /// The day urgency was computed for (day number since 1970).
    private(set) var today: Int
    /// Whether the keys hold natural-order titles.
    private(set) var hasTitles = false

    init(timeZone: TimeZone, today: Int, items: TodoCollection, titles: Bool = false) {
        self.timeZone = timeZone
        self.today = today
        self.hasTitles = titles
        keys.reserveCapacity(items.count)
        items.forEachItem { item in keys[item.id] = key(for: item, in: items) }
    }

    private static let noTitle = NaturalSortKey("")

    /// `item`'s key, as it stands in `items`. `previous`, the key of the
    /// same item before a change that kept its title, lends its
    /// natural-order title, the costliest part.
    func key(for item: TodoItem, in items: TodoCollection, keepingTitleOf previous: Key? = nil) -> Key {
        let linked = !items.links.isEmpty
        let facts = linked ? LinkFacts(blocked: items.isBlocked(item), blocking: items.isBlocking(item)) : .none
        let parent = linked && item.parent != nil ? items.effectiveParent(of: item) : nil
        return Key(
            id: item.id, createdAt: item.createdAt, modifiedAt: item.updatedAt,
            title: previous?.title ?? (hasTitles ? NaturalSortKey(item.title) : Self.noTitle),
            dueInstant: item.due?.sortInstant(in: timeZone),
            priorityRank: item.priority.map { $0 == .high ? 3 : $0 == .medium ? 2 : 1 } ?? 0,
            project: item.project.map(Self.folded),
            urgency: Urgency.score(of: item, today: today, timeZone: timeZone, facts: facts),
            projectName: item.project, fields: item.values.isEmpty ? [:] : item.values.compactMapValues(sortValue),
            facts: facts, parent: parent, depth: parent == nil ? 0 : items.ancestors(of: item).count)
    }

    /// How `value` sorts; nil (as no value) for a number that is not one,
    /// which would compare as neither before nor after any other.
    private func sortValue(_ value: FieldValue) -> FieldSortValue? {
        switch value {
        case .text(let text): .text(Self.folded(text))
        case .number(let number): number.isNaN ? nil : .number(number)
        case .duration(let seconds): .number(Double(seconds))
        case .date(let date): .number(date.sortInstant(in: timeZone).timeIntervalSinceReferenceDate)
        case .items(let ids): ids.first.map { .number(Double($0.rawValue)) }
        }
    }

    /// The title as the project order compares it: case, diacritics and
    /// width folded. An ASCII text, the common case, only needs lower-casing,
    /// done here by byte.
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
        return title.foldedForComparison
    }

    /// The key of the item with `id` as it is placed in the views now.
    subscript(id: TodoID) -> Key? { keys[id] }

    /// Records an item's new state (nil: deleted), after its old rows were removed
    /// from every view and before its new rows are placed.
    mutating func update(_ id: TodoID, to item: TodoItem?, in items: TodoCollection) {
        keys[id] = item.map { key(for: $0, in: items) }
    }

    /// Records an item's new key, already computed (nil: deleted).
    mutating func set(_ id: TodoID, to key: Key?) {
        keys[id] = key
    }

    /// Computes every key again, for `today` and with titles if `titles`.
    mutating func recompute(today: Int, titles: Bool, items: TodoCollection) {
        self.today = today
        hasTitles = titles
        items.forEachItem { item in keys[item.id] = key(for: item, in: items) }
    }

    /// Whether `lhs` comes first, by `sort`, grouped first by project when `grouping` says so.
    static func precedes(_ lhs: Key, _ rhs: Key, by sort: ListSort, grouping: ListGrouping? = nil) -> Bool {
        if grouping == .project {
            // Folded, then as written: projects that differ only in case or
            // accents ("Home", "home") sort next to each other but are
            // different groups, and each group's rows must be together.
            var order = compareMissingLast(lhs.project, rhs.project, reversed: false)
            if order == 0 { order = compareMissingLast(lhs.projectName, rhs.projectName, reversed: false) }
            if order != 0 { return order < 0 }
        }
        for key in sort.keys {
            let order = compare(lhs, rhs, by: key)
            if order != 0 { return order < 0 }
        }
        return lhs.id < rhs.id
    }

    /// Whether two keys of the same item place it alike by `sort`: every
    /// key the sort reads ties, and so do the group and the place in the
    /// tree. Then the item's row keeps its place among all the others.
    static func placeAlike(_ lhs: Key, _ rhs: Key, by sort: ListSort, grouping: ListGrouping?) -> Bool {
        guard lhs.parent == rhs.parent, lhs.depth == rhs.depth else { return false }
        if grouping == .project, lhs.project != rhs.project || lhs.projectName != rhs.projectName { return false }
        return sort.keys.allSatisfy { compare(lhs, rhs, by: $0) == 0 }
    }

    /// -1, 0 or 1 as `lhs` comes before, ties with, or comes after `rhs` by one key.
    private static func compare(_ lhs: Key, _ rhs: Key, by key: ListSort.Key) -> Int {
        let sign = key.reversed ? -1 : 1
        switch key.field {
        case .created: return sign * threeWay(lhs.createdAt, rhs.createdAt)
        case .modified: return sign * threeWay(lhs.modifiedAt, rhs.modifiedAt)
        case .title: return sign * NaturalSortKey.compare(lhs.title, rhs.title)
        case .due: return compareMissingLast(lhs.dueInstant, rhs.dueInstant, reversed: key.reversed)
        case .priority:
            // Highest first; none (0) last in either direction.
            if lhs.priorityRank == rhs.priorityRank { return 0 }
            if lhs.priorityRank == 0 { return 1 }
            if rhs.priorityRank == 0 { return -1 }
            return sign * (lhs.priorityRank > rhs.priorityRank ? -1 : 1)
        case .project: return compareMissingLast(lhs.project, rhs.project, reversed: key.reversed)
        case .urgency: return sign * threeWay(rhs.urgency, lhs.urgency)
        case .declared(let name): return compareMissingLast(lhs.fields[name], rhs.fields[name], reversed: key.reversed)
        }
    }

    private static func threeWay<T: Comparable>(_ lhs: T, _ rhs: T) -> Int {
        lhs < rhs ? -1 : (rhs < lhs ? 1 : 0)
    }

    /// Values ascending (descending when `reversed`), missing ones last either way.
    private static func compareMissingLast<T: Comparable>(_ lhs: T?, _ rhs: T?, reversed: Bool) -> Int {
        switch (lhs, rhs) {
        case let (left?, right?): return (reversed ? -1 : 1) * threeWay(left, right)
        case (.some, nil): return -1
        case (nil, .some): return 1
        case (nil, nil): return 0
        }
    }
}
