import FoundationEssentials
import TodoModel
import TodoViewState

/// Decides reminders: which items are due one, which have fired, and the next
/// instant at which anything changes. Fired reminders are remembered (and
/// stored by the view model), so each fires once per item and condition,
/// also across restarts; an alert shows while its item is undone and exists.
struct Reminders {
    /// How long an item may stay undone before it is a reminder (the
    /// daemon's configuration can change it while running).
    var waitingAge: TimeInterval
    /// How long before a due time an item is "due soon"; 0 for never. Only
    /// items due at a time of day are: a due day has no moment to count from
    /// but its end, which the overdue reminder already marks.
    var dueSoonLead: TimeInterval = 0
    private(set) var fired: Set<ReminderKey>
    /// Fired alerts of items that are undone and exist, by item.
    private var active: [TodoID: Set<ReminderAlert.Condition>] = [:]
    /// At most this many alerts are listed; `alertCount` says how many there are.
    static let listed = 20

    init(waitingAge: TimeInterval, fired: Set<ReminderKey>, items: TodoCollection) {
        self.waitingAge = waitingAge
        self.fired = fired
        for key in fired {
            guard let item = items[key.itemID], !item.isDone else { continue }
            active[key.itemID, default: []].insert(key.condition)
        }
    }

    /// When `item` meets `condition`, if it ever will (undone items only).
    func deadline(of item: TodoItem, _ condition: ReminderAlert.Condition, timeZone: TimeZone) -> Date? {
        guard !item.isDone else { return nil }
        switch condition {
        case .waiting: return item.createdAt.addingTimeInterval(waitingAge)
        case .overdue: return item.due?.overdueFrom(in: timeZone)
        case .dueSoon:
            guard dueSoonLead > 0, case .moment(let date)? = item.due else { return nil }
            return date.addingTimeInterval(-dueSoonLead)
        }
    }

    /// A "due soon" reminder is pointless once the item is overdue: that
    /// reminder says more, so a due-soon one that has not fired by then never does.
    private func isLate(_ item: TodoItem, _ condition: ReminderAlert.Condition, at now: Date, timeZone: TimeZone) -> Bool {
        condition == .dueSoon && (item.due.map { $0.overdueFrom(in: timeZone) <= now } ?? true)
    }

    /// The earliest instant at which `item` fires a reminder or turns
    /// overdue (its row changes then even if the reminder fired before):
    /// `now` itself when a reminder is already due and has not fired (an
    /// item added or changed with a due date in the past), else after `now`.
    func nextEvent(of item: TodoItem, after now: Date, timeZone: TimeZone) -> Date? {
        ReminderAlert.Condition.allCases.compactMap { condition -> Date? in
            guard let deadline = deadline(of: item, condition, timeZone: timeZone) else { return nil }
            if let until = item.until, deadline >= until.overdueFrom(in: timeZone) { return nil }  // expired by then
            let hasFired = fired.contains(ReminderKey(itemID: item.id, condition: condition))
            if deadline <= now { return hasFired || isLate(item, condition, at: now, timeZone: timeZone) ? nil : now }
            return hasFired && condition != .overdue ? nil : deadline
        }.min()
    }

    /// The reminders that are due at `now` and have not fired.
    func due(at now: Date, items: some Sequence<TodoItem>, timeZone: TimeZone) -> [ReminderKey] {
        var keys: [ReminderKey] = []
        // An expired item (past its `until`) has left the list's views: it raises nothing more.
        for item in items where !item.isDone && !item.hasExpired(at: now, in: timeZone) {
            for condition in ReminderAlert.Condition.allCases {
                guard let deadline = deadline(of: item, condition, timeZone: timeZone), deadline <= now,
                    !isLate(item, condition, at: now, timeZone: timeZone)
                else { continue }
                let key = ReminderKey(itemID: item.id, condition: condition)
                if !fired.contains(key) { keys.append(key) }
            }
        }
        return keys
    }

    mutating func markFired(_ keys: [ReminderKey]) {
        for key in keys {
            fired.insert(key)
            active[key.itemID, default: []].insert(key.condition)
        }
    }

    /// Keeps alerts in step with an item's new state: gone when it is done or
    /// deleted, back (without firing again) when it is reopened or restored.
    mutating func itemChanged(_ id: TodoID, to item: TodoItem?) {
        guard let item, !item.isDone else {
            active[id] = nil
            return
        }
        let conditions = Set(ReminderAlert.Condition.allCases.filter {
            fired.contains(ReminderKey(itemID: id, condition: $0))
        })
        active[id] = conditions.isEmpty ? nil : conditions
    }

    var alertCount: Int { active.values.reduce(0) { $0 + $1.count } }

    /// Whether any reminder is raised (`activeKeys` is not empty).
    var hasActive: Bool { !active.isEmpty }

    /// Every raised reminder of an undone item, by item id then condition.
    var activeKeys: [ReminderKey] {
        active.keys.sorted().flatMap { id in
            ReminderAlert.Condition.allCases.filter { active[id]!.contains($0) }.map { ReminderKey(itemID: id, condition: $0) }
        }
    }

    /// The first `listed` alerts, by item id, worded.
    func alerts(items: TodoCollection, word: (TodoItem, ReminderAlert.Condition) -> String) -> [ReminderAlert] {
        var alerts: [ReminderAlert] = []
        for id in active.keys.sorted() {
            guard let item = items[id] else { continue }
            for condition in ReminderAlert.Condition.allCases where active[id]!.contains(condition) {
                alerts.append(ReminderAlert(id: id.rawValue, condition: condition, message: word(item, condition)))
                if alerts.count == Self.listed { return alerts }
            }
        }
        return alerts
    }
}
