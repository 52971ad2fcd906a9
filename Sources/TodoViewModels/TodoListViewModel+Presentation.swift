import FoundationEssentials
import TodoModel
import TodoViewState

/// What clients see of the list: each view's properties and rows, and each
/// change as the properties that differ and the row edits (a view's change
/// set).
extension TodoListViewModel {
    /// What every view's properties are made from, taken before a change
    /// (`propertiesBefore()`): the shared part once, and each view's own.
    struct PropertiesBefore {
        struct View {
            var definition: ViewDefinition
            var queryText: String
            var counts: ViewCounts
            var isEmpty: Bool
        }

        var shared: SharedProperties
        var itemCount: Int
        var views: [ViewID: View]

        func parts(of id: ViewID) -> PropertyParts? {
            views[id].map {
                PropertyParts(
                    definition: $0.definition, queryText: $0.queryText, counts: $0.counts, isEmpty: $0.isEmpty,
                    itemCount: itemCount, shared: shared)
            }
        }
    }

    func propertiesBefore() -> PropertiesBefore {
        PropertiesBefore(
            shared: sharedProperties, itemCount: collection.count,
            views: views.mapValues {
                PropertiesBefore.View(definition: $0.definition, queryText: $0.queryText, counts: $0.counts, isEmpty: $0.order.isEmpty)
            })
    }

    /// Each view's change set: properties that differ from `before`, and
    /// the row edits. Which properties differ is found from what they are
    /// made from (`PropertyParts.changedKeys(since:)`).
    func changeSets(since before: PropertiesBefore, operations: [ViewID: [RowOperation]])
        -> [ViewID: TodoListChange]
    {
        var changes: [ViewID: TodoListChange] = [:]
        let now = clock.currentTime()
        let shared = sharedProperties
        for (id, view) in views {
            let parts = parts(of: view, shared: shared)
            var rowOperations = operations[id] ?? []
            if rowOperations.count > Self.resetThreshold { rowOperations = [.reset(rows: rows(of: view, now: now))] }
            let changedKeys = before.parts(of: id).map { parts.changedKeys(since: $0) } ?? []
            guard !changedKeys.isEmpty || !rowOperations.isEmpty else { continue }
            changes[id] = TodoListChange(properties: parts.properties, changedKeys: changedKeys, rowOperations: rowOperations)
        }
        return changes
    }

    // MARK: Presentation

    func rows(of view: ListView, now: Date) -> [TodoRow] {
        RowBuilder(wording: wording, now: now, grouped: view.definition.grouping != nil, fields: fields)
            .rows(of: view.order, in: collection, keys: keys, tree: view.isTree, context: view.contextRows)
    }

    /// The properties that are the same in every view (the whole list's
    /// flags, the history, the reminders): found once when many views'
    /// properties are read together.
    struct SharedProperties {
        var allDone: Bool
        var canClearCompleted: Bool
        var undoText: String?
        var redoText: String?
        var alerts: [ReminderAlert]
        var alertCount: Int
        var desktopReminders: [DesktopReminder]
    }

    var sharedProperties: SharedProperties {
        SharedProperties(
            allDone: collection.count > 0 && completedCount == collection.count,
            canClearCompleted: completedCount > 0,
            undoText: history.nextUndo.map { "Undo \(worded($0))" },
            redoText: history.nextRedo.map { "Redo \(worded($0))" },
            alerts: alerts(),
            alertCount: reminders.alertCount,
            desktopReminders: desktopReminders())
    }

    func properties(of view: ListView) -> TodoListProperties {
        parts(of: view, shared: sharedProperties).properties
    }

    private func parts(of view: ListView, shared: SharedProperties) -> PropertyParts {
        PropertyParts(
            definition: view.definition, queryText: view.queryText, counts: view.counts, isEmpty: view.order.isEmpty,
            itemCount: collection.count, shared: shared)
    }

    private func alerts() -> [ReminderAlert] {
        if let cachedAlerts { return cachedAlerts }
        let now = clock.currentTime()
        let alerts = reminders.alerts(items: collection) { item, condition in
            let title = "\u{201C}\(item.title)\u{201D}"
            switch condition {
            case .waiting: return "\(title) has waited for more than \(Self.worded(age: reminders.waitingAge))"
            case .overdue: return "\(title) is overdue (\(item.due.map { wording.due($0, now: now) } ?? "due"))"
            case .dueSoon: return "\(title) is due soon (\(item.due.map { wording.due($0, now: now) } ?? "due"))"
            }
        }
        cachedAlerts = alerts
        return alerts
    }

    /// "a day", "2 days", "3 hours", "90 minutes", "30 seconds".
    static func worded(age seconds: TimeInterval) -> String {
        if seconds < 60 {
            let whole = max(1, Int(seconds.rounded()))
            return whole == 1 ? "a second" : "\(whole) seconds"
        }
        let minutes = Int(seconds / 60)
        if minutes % 1440 == 0 { return minutes == 1440 ? "a day" : "\(minutes / 1440) days" }
        if minutes % 60 == 0 { return minutes == 60 ? "an hour" : "\(minutes / 60) hours" }
        return minutes == 1 ? "a minute" : "\(minutes) minutes"
    }

    /// `item`'s row; `key` is its sort key as placed (its blocked and
    /// blocking state, its depth), the one `keys` holds when not given.
    func row(_ item: TodoItem, now: Date, grouped: Bool = false, key: SortKeys.Key? = nil, tree: Bool = false, context: Bool = false)
        -> TodoRow
    {
        RowBuilder(wording: wording, now: now, grouped: grouped, fields: fields)
            .row(item, key: key ?? keys[item.id], tree: tree, context: context)
    }
}
