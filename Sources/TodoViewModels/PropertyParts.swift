import TodoViewState

/// Everything a view's properties are made from: its definition, its
/// counters, whether it has rows, the list's size, and the properties all
/// views share. `properties` makes them; equal parts make equal properties.
///
/// Every edit finds, for every open view, which properties it changed.
/// Making the properties as they were and comparing all of them through
/// their declarations cost about a twentieth of a durable add; comparing
/// the parts they are made from finds the same keys (`changedKeys(since:)`,
/// checked against the full comparison on random parts by
/// `PropertyPartsTests`) without making the old properties at all.
struct PropertyParts {
    var definition: ViewDefinition
    var queryText: String
    var counts: ViewCounts
    var isEmpty: Bool
    var itemCount: Int
    var shared: TodoListViewModel.SharedProperties

    var properties: TodoListProperties {
        TodoListProperties(
            filter: definition.filter,
            query: queryText,
            sort: definition.sort,
            grouping: definition.grouping,
            itemsLeft: ListWording.itemsLeft(activeCount: counts.active),
            activeCount: counts.active,
            completedCount: counts.completed,
            totalCount: counts.total,
            overdueCount: counts.overdue,
            overdueText: ListWording.overdue(counts.overdue),
            dueTodayCount: counts.dueToday,
            dueTodayText: ListWording.dueToday(counts.dueToday),
            tagCounts: counts.tags,
            projectCounts: counts.projects,
            allDone: shared.allDone,
            canClearCompleted: shared.canClearCompleted,
            emptyText: emptyText,
            canUndo: shared.undoText != nil,
            undoText: shared.undoText,
            canRedo: shared.redoText != nil,
            redoText: shared.redoText,
            alerts: shared.alerts,
            alertCount: shared.alertCount,
            desktopReminders: shared.desktopReminders
        )
    }

    private var emptyText: String? {
        isEmpty ? ListWording.emptyText(filter: definition.filter, query: definition.query, totalCount: itemCount) : nil
    }

    /// The names of the properties that differ from those `old` makes, in
    /// the order they are declared: what `properties.changedKeys(since:
    /// old.properties)` says. A worded counter ("2 items left") changes
    /// exactly when its count does: each wording says its number.
    func changedKeys(since old: PropertyParts) -> [String] {
        var changed = Changed()
        if definition.filter != old.definition.filter { changed.insert(Index.filter) }
        if queryText != old.queryText { changed.insert(Index.query) }
        if definition.sort != old.definition.sort { changed.insert(Index.sort) }
        if definition.grouping != old.definition.grouping { changed.insert(Index.grouping) }
        if counts.active != old.counts.active { changed.insert(Index.itemsLeft, Index.activeCount) }
        if counts.completed != old.counts.completed { changed.insert(Index.completedCount) }
        if counts.total != old.counts.total { changed.insert(Index.totalCount) }
        if counts.overdue != old.counts.overdue { changed.insert(Index.overdueCount, Index.overdueText) }
        if counts.dueToday != old.counts.dueToday { changed.insert(Index.dueTodayCount, Index.dueTodayText) }
        if counts.tags != old.counts.tags { changed.insert(Index.tagCounts) }
        if counts.projects != old.counts.projects { changed.insert(Index.projectCounts) }
        if shared.allDone != old.shared.allDone { changed.insert(Index.allDone) }
        if shared.canClearCompleted != old.shared.canClearCompleted { changed.insert(Index.canClearCompleted) }
        if (isEmpty || old.isEmpty) && emptyText != old.emptyText { changed.insert(Index.emptyText) }
        if (shared.undoText == nil) != (old.shared.undoText == nil) { changed.insert(Index.canUndo) }
        if shared.undoText != old.shared.undoText { changed.insert(Index.undoText) }
        if (shared.redoText == nil) != (old.shared.redoText == nil) { changed.insert(Index.canRedo) }
        if shared.redoText != old.shared.redoText { changed.insert(Index.redoText) }
        if shared.alerts != old.shared.alerts { changed.insert(Index.alerts) }
        if shared.alertCount != old.shared.alertCount { changed.insert(Index.alertCount) }
        if shared.desktopReminders != old.shared.desktopReminders { changed.insert(Index.desktopReminders) }
        return changed.names
    }

    /// Declared properties, by their position in the declarations.
    private struct Changed {
        private var bits: UInt64 = 0

        mutating func insert(_ index: Int) { bits |= 1 << index }

        /// A count and its wording.
        mutating func insert(_ index: Int, _ other: Int) { bits |= 1 << index | 1 << other }

        var names: [String] {
            guard bits != 0 else { return [] }
            let declarations = TodoListProperties.declarations
            var names: [String] = []
            names.reserveCapacity(bits.nonzeroBitCount)
            var rest = bits
            while rest != 0 {
                let index = rest.trailingZeroBitCount
                names.append(declarations[index].name)
                rest &= rest - 1
            }
            return names
        }
    }

    /// Each property's position in the declarations, found once by where it
    /// is stored, so its name is written in one place only.
    private enum Index {
        static let filter = TodoListProperties.declarationIndex(of: \.filter)
        static let query = TodoListProperties.declarationIndex(of: \.query)
        static let sort = TodoListProperties.declarationIndex(of: \.sort)
        static let grouping = TodoListProperties.declarationIndex(of: \.grouping)
        static let itemsLeft = TodoListProperties.declarationIndex(of: \.itemsLeft)
        static let activeCount = TodoListProperties.declarationIndex(of: \.activeCount)
        static let completedCount = TodoListProperties.declarationIndex(of: \.completedCount)
        static let totalCount = TodoListProperties.declarationIndex(of: \.totalCount)
        static let overdueCount = TodoListProperties.declarationIndex(of: \.overdueCount)
        static let overdueText = TodoListProperties.declarationIndex(of: \.overdueText)
        static let dueTodayCount = TodoListProperties.declarationIndex(of: \.dueTodayCount)
        static let dueTodayText = TodoListProperties.declarationIndex(of: \.dueTodayText)
        static let tagCounts = TodoListProperties.declarationIndex(of: \.tagCounts)
        static let projectCounts = TodoListProperties.declarationIndex(of: \.projectCounts)
        static let allDone = TodoListProperties.declarationIndex(of: \.allDone)
        static let canClearCompleted = TodoListProperties.declarationIndex(of: \.canClearCompleted)
        static let emptyText = TodoListProperties.declarationIndex(of: \.emptyText)
        static let canUndo = TodoListProperties.declarationIndex(of: \.canUndo)
        static let undoText = TodoListProperties.declarationIndex(of: \.undoText)
        static let canRedo = TodoListProperties.declarationIndex(of: \.canRedo)
        static let redoText = TodoListProperties.declarationIndex(of: \.redoText)
        static let alerts = TodoListProperties.declarationIndex(of: \.alerts)
        static let alertCount = TodoListProperties.declarationIndex(of: \.alertCount)
        static let desktopReminders = TodoListProperties.declarationIndex(of: \.desktopReminders)
    }
}
