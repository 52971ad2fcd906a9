import FoundationEssentials
import TodoModel
import TodoViewState

/// One list view instance: what it shows (`ViewDefinition`), its query
/// compiled for the current moment, the ids of its rows in order, and its
/// counters. Several exist at once (named views every terminal watches, a
/// client's own views); each turns item changes into its own row edits.
///
/// An edit to one item tests that item against the query — never the
/// whole list — and costs a binary search and a move within one chunk of
/// the order (`RowOrder`), in place: not a re-sort, a re-format of every
/// row, or a copy of the order.
struct ListView {
    private(set) var definition: ViewDefinition
    /// The query's canonical text, written once: every edit reads it twice.
    private(set) var queryText: String
    /// Whether the query names a status (then waiting items are not hidden).
    private var mentionsStatus: Bool
    /// The query with its dates resolved at some moment (see `CompiledQuery`);
    /// compiled again when the day changes.
    private(set) var compiled: CompiledQuery
    private(set) var order = RowOrder()
    /// The ids in `order`, to tell at once whether the view shows an item.
    private var members = RowMembers()
    /// The rows shown only as the path to a matching subtask (tree views).
    private(set) var contextRows: Set<TodoID> = []
    private(set) var counts = ViewCounts()

    init(definition: ViewDefinition, compiled: CompiledQuery, items: TodoCollection, keys: SortKeys, clock: ViewClock) {
        self.definition = definition
        self.queryText = definition.query.description
        self.mentionsStatus = definition.query.mentionsStatus
        self.compiled = compiled
        rebuild(items, keys: keys, clock: clock)
    }

    var filter: ListFilter { definition.filter }
    var sort: ListSort { definition.sort }
    /// Subtasks under their parents (`TreeOrder`), unless the view is flat.
    var isTree: Bool { !definition.flat }

    /// Whether the query counts the item: it matches, and it is neither
    /// waiting nor expired (past its `until`) unless the query asks about
    /// status (such items are hidden from the views that do not ask for them).
    /// `facts`, the item's blocked and blocking state, comes from its key as
    /// placed (`SortKeys.Key.facts`).
    func matchesQuery(_ item: TodoItem, facts: LinkFacts) -> Bool {
        Self.matches(item, facts: facts, compiled, mentionsStatus: mentionsStatus)
    }

    private static func matches(_ item: TodoItem, facts: LinkFacts, _ compiled: CompiledQuery, mentionsStatus: Bool) -> Bool {
        guard compiled.matches(item, facts: facts) else { return false }
        return mentionsStatus || (!compiled.isWaiting(item) && !compiled.hasExpired(item))
    }

    /// Whether the view shows a row for the item for itself (not as a
    /// path), on its own: to test many items without holding the view.
    var matcher: Matcher { Matcher(compiled: compiled, mentionsStatus: mentionsStatus, filter: definition.filter) }

    struct Matcher {
        let compiled: CompiledQuery
        let mentionsStatus: Bool
        let filter: ListFilter

        func includes(_ item: TodoItem, facts: LinkFacts) -> Bool {
            ListView.passes(item, filter) && ListView.matches(item, facts: facts, compiled, mentionsStatus: mentionsStatus)
        }
    }

    /// Whether the view shows a row for the item with `id`, for itself or as a path.
    func shows(_ id: TodoID) -> Bool { members.contains(id) }

    /// Whether the view's filter (all, active, completed) lets the item through.
    func passesFilter(_ item: TodoItem) -> Bool { Self.passes(item, definition.filter) }

    private static func passes(_ item: TodoItem, _ filter: ListFilter) -> Bool {
        switch filter {
        case .all: true
        case .active: !item.isDone
        case .completed: item.isDone
        }
    }

    /// Rebuilds the order and the counters from every item: for a new view,
    /// new options, or a change touching so many items that placing them one
    /// by one would cost more.
    mutating func rebuild(_ items: TodoCollection, keys: SortKeys, clock: ViewClock) {
        let sort = definition.sort
        let grouping = definition.grouping
        var tally = ViewCounts.Tally(clock: clock)
        // Sort the keys themselves, not ids looked up in a dictionary per
        // comparison; unretained, as `keys` holds every one while this runs,
        // so that moving and comparing them costs no reference counting.
        var shown: [Unmanaged<SortKeys.Key>] = []
        shown.reserveCapacity(items.count)
        var inTrees = false
        items.forEachItem { item in
            guard let key = keys[item.id], matchesQuery(item, facts: key.facts) else { return }
            tally.add(item)
            if passesFilter(item) {
                shown.append(Unmanaged.passUnretained(key))
                if key.parent != nil { inTrees = true }
            }
        }
        contextRows = []
        let tree = isTree && inTrees
        if tree {
            // The path to each subtask shown: its ancestors, shown for it.
            var shownIDs = RowMembers(shown.map { $0._withUnsafeGuaranteedRef(\.id) })
            for index in shown.indices {
                var parent = shown[index]._withUnsafeGuaranteedRef(\.parent)
                while let id = parent, !shownIDs.contains(id), let key = keys[id] {
                    shownIDs.insert(id)
                    contextRows.insert(id)
                    shown.append(Unmanaged.passUnretained(key))
                    parent = key.parent
                }
            }
        }
        withExtendedLifetime(keys) {
            let sorted = SortWords(sort: sort, grouping: grouping, keys: shown).sorted(shown)
            var ids = sorted.map { $0._withUnsafeGuaranteedRef(\.id) }
            if tree { ids = keys.arranged(ids) }
            order = RowOrder(ids)
            members = RowMembers(ids)
        }
        counts = tally.result
    }

    mutating func redefine(_ definition: ViewDefinition, compiled: CompiledQuery, items: TodoCollection, keys: SortKeys, clock: ViewClock) {
        self.definition = definition
        self.queryText = definition.query.description
        self.mentionsStatus = definition.query.mentionsStatus
        self.compiled = compiled
        rebuild(items, keys: keys, clock: clock)
    }

    /// A new compiled form of the same query (the day changed); the caller
    /// rebuilds or re-places what that changes.
    mutating func recompile(_ compiled: CompiledQuery) {
        self.compiled = compiled
    }

    /// Keeps the counters in step with one item's change; returns whether
    /// the query matches the item as it is now (for `place`).
    /// `before` is judged with `beforeFacts` (its key as it was placed),
    /// `after` with `afterFacts`.
    @discardableResult
    mutating func recount(_ change: ItemChange, beforeFacts: LinkFacts, afterFacts: LinkFacts, clock: ViewClock) -> Bool {
        if let before = change.before, matchesQuery(before, facts: beforeFacts) { counts.count(before, by: -1, clock: clock) }
        guard let after = change.after, matchesQuery(after, facts: afterFacts) else { return false }
        counts.count(after, by: 1, clock: clock)
        return true
    }

    /// Takes an item's contribution out of (`sign` -1) or into (1) the
    /// counters, as the query counted it (for a tick that re-judges items).
    mutating func count(_ item: TodoItem, facts: LinkFacts, by sign: Int, clock: ViewClock) {
        if matchesQuery(item, facts: facts) { counts.count(item, by: sign, clock: clock) }
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

    /// Moves the row of a changed item: where it is now is found by its old
    /// key (`keys` still holds it), where it goes by `newKey`, the key of
    /// `change.after`. A row whose new key still falls between its
    /// neighbours stays where it is and is only updated.
    ///
    /// `afterMatchesQuery`, when given, is whether the query matches
    /// `change.after` (`recount` has just found out; a regular expression
    /// need not run twice).
    mutating func place(_ change: ItemChange, afterMatchesQuery: Bool? = nil, newKey: SortKeys.Key?, keys: SortKeys) -> Placement {
        let old = members.contains(change.id) ? keys[change.id].flatMap { position(ofKey: $0, keys: keys) } : nil
        let shown = change.after.map { passesFilter($0) && (afterMatchesQuery ?? matchesQuery($0, facts: newKey?.facts ?? .none)) } ?? false
        switch (old, shown ? newKey : nil) {
        case (nil, nil):
            return .unchanged
        case (let old?, nil):
            order.remove(at: old)
            members.remove(change.id)
            return .removed(old)
        case (nil, let key?):
            let new = insertionIndex(for: key, keys: keys)
            order.insert(change.id, at: new)
            members.insert(change.id)
            return .inserted(new)
        case (let old?, let key?):
            let fitsAfterPrevious = old == 0 || precedes(keys[order[old - 1]]!, key, keys: keys)
            let fitsBeforeNext = old == order.count - 1 || precedes(key, keys[order[old + 1]]!, keys: keys)
            if fitsAfterPrevious && fitsBeforeNext { return .updated(old) }
            order.remove(at: old)
            let new = insertionIndex(for: key, keys: keys)
            order.insert(change.id, at: new)
            return .moved(from: old, to: new)
        }
    }

    /// Where the row of the item with `key` is, or nil when this view does not show it.
    func position(ofKey key: SortKeys.Key, keys: SortKeys) -> Int? {
        let index = insertionIndex(for: key, keys: keys)
        return index < order.count && order[index] == key.id ? index : nil
    }

    private func precedes(_ lhs: SortKeys.Key, _ rhs: SortKeys.Key, keys: SortKeys) -> Bool {
        isTree
            ? keys.treePrecedes(lhs, rhs, by: definition.sort, grouping: definition.grouping)
            : SortKeys.precedes(lhs, rhs, by: definition.sort, grouping: definition.grouping)
    }

    /// The first position whose row does not precede `key`.
    private func insertionIndex(for key: SortKeys.Key, keys: SortKeys) -> Int {
        order.partitionPoint { precedes(keys[$0]!, key, keys: keys) }
    }

    // MARK: Rows whose links changed

    /// Takes the row of the item with `id` out, found by its key as placed
    /// (`keys` must still hold it); its position, or nil when not shown.
    mutating func takeOut(_ id: TodoID, keys: SortKeys) -> Int? {
        guard members.contains(id), let key = keys[id], let at = position(ofKey: key, keys: keys) else { return nil }
        order.remove(at: at)
        members.remove(id)
        contextRows.remove(id)
        return at
    }

    /// Marks the row of the item with `id` as a path row (or no longer);
    /// its position, or nil when not shown.
    mutating func markContext(_ id: TodoID, _ context: Bool, keys: SortKeys) -> Int? {
        guard members.contains(id), let key = keys[id], let at = position(ofKey: key, keys: keys) else { return nil }
        if context { contextRows.insert(id) } else { contextRows.remove(id) }
        return at
    }

    /// Puts the row of the item with `id` in by its new key (in `keys`),
    /// as a path row when `context`; its position.
    mutating func putIn(_ id: TodoID, context: Bool, keys: SortKeys) -> Int {
        let at = insertionIndex(for: keys[id]!, keys: keys)
        order.insert(id, at: at)
        members.insert(id)
        if context { contextRows.insert(id) }
        return at
    }
}

/// The moment views judge items at: the instant, its day number and the
/// time zone (overdue and due-today counts, waiting).
struct ViewClock {
    var now: Date
    var today: Int
    var timeZone: TimeZone

    init(now: Date, timeZone: TimeZone) {
        self.now = now
        self.today = CalendarDay.dayNumber(of: now, in: timeZone)
        self.timeZone = timeZone
    }
}
