import FoundationEssentials
import TodoModel
import TodoViewState

/// Reminders on the desktop: which ones belong there now (the
/// `desktopReminders` property every view has), snoozing and dismissing
/// them, and the settings that decide it. The desktop itself is a client's
/// business (`todoctl notify`); what it shows is decided here, so it is the
/// same for every client and tested without a desktop.
extension TodoListViewModel {
    /// How reminders reach the desktop.
    public var desktopSettings: DesktopReminderSettings { desktop.settings }

    /// How long before its due time an item raises a "due soon" reminder (0: never).
    public var dueSoonLead: TimeInterval { reminders.dueSoonLead }

    /// Applies reloaded settings. The returned change sets carry the new
    /// `desktopReminders`; a longer lead fires its reminders at the next tick.
    public func changeDesktopSettings(_ settings: DesktopReminderSettings, dueSoonLead: TimeInterval) -> ListChangeOutcome {
        let before = propertiesBefore()
        desktop.settings = settings
        reminders.dueSoonLead = dueSoonLead
        cachedAlerts = nil
        cachedDesktop = nil
        return ListChangeOutcome(changes: changeSets(since: before, operations: [:]), nextEvent: nextEvent)
    }

    /// Keeps a reminder off the desktop until `until`, when it comes back.
    /// The item must exist; the reminder need not have fired yet.
    public func snoozeReminder(_ id: TodoID, _ condition: ReminderAlert.Condition, until: Date) throws(TodoError)
        -> ListChangeOutcome
    {
        guard collection[id] != nil else { throw .notFound(id) }
        return changeDesktop(ReminderKey(itemID: id, condition: condition)) { $0.snooze($1, until: until) }
    }

    /// As `snoozeReminder(_:_:until:)`, until the moment date text names
    /// ("tomorrow 9am"), read with the list's clock.
    public func snoozeReminder(_ id: TodoID, _ condition: ReminderAlert.Condition, untilText text: String)
        throws(TodoError) -> ListChangeOutcome
    {
        let now = clock.currentTime()
        let parsed: DueDate
        do throws(NaturalDateError) {
            parsed = try NaturalDateParser(now: now, timeZone: clock.timeZone).parse(text)
        } catch {
            throw .invalidDate(field: .due, text: text, error)
        }
        // A bare day means its start: "tomorrow" is tomorrow morning, not tomorrow night.
        return try snoozeReminder(id, condition, until: parsed.sortInstant(in: clock.timeZone))
    }

    /// Keeps a reminder off the desktop for good (its notification was closed).
    public func dismissReminder(_ id: TodoID, _ condition: ReminderAlert.Condition) throws(TodoError) -> ListChangeOutcome {
        guard collection[id] != nil else { throw .notFound(id) }
        return changeDesktop(ReminderKey(itemID: id, condition: condition)) { $0.dismiss($1) }
    }

    private func changeDesktop(
        _ key: ReminderKey, _ change: (inout DesktopReminders, ReminderKey) -> DesktopReminderState
    ) -> ListChangeOutcome {
        let before = propertiesBefore()
        var applied = AppliedChange(nextIDBefore: collection.nextID)
        applied.desktopBefore = desktop
        let state = change(&desktop, key)
        cachedDesktop = nil
        return ListChangeOutcome(
            changes: changeSets(since: before, operations: [:]), write: ListWrite(desktopReminders: [key: state]),
            applied: applied, nextEvent: nextEvent)
    }

    /// The desktop list, judged at the last tick like everything else that
    /// depends on the time, so the tick that crosses a snooze's end sees it.
    func desktopReminders() -> [DesktopReminder] {
        if let cachedDesktop { return cachedDesktop }
        // Most changes raise no reminder: nothing to order or filter.
        guard reminders.hasActive else {
            cachedDesktop = []
            return []
        }
        let keys = desktop.showing(reminders.activeKeys, at: lastTick, timeZone: clock.timeZone)
        let now = clock.currentTime()
        let listed = keys.compactMap { key -> DesktopReminder? in
            guard let item = collection[key.itemID] else { return nil }
            return DesktopReminder(
                id: key.itemID.rawValue, condition: key.condition, summary: item.title,
                body: desktopBody(item, key.condition, now: now), urgency: Self.urgency(item, key.condition))
        }
        cachedDesktop = listed
        return listed
    }

    /// "overdue (due yesterday) · project home"; the due date as rows word it.
    private func desktopBody(_ item: TodoItem, _ condition: ReminderAlert.Condition, now: Date) -> String {
        var parts: [String] = []
        let due = item.due.map { wording.due($0, now: now) }
        switch condition {
        case .overdue: parts.append("overdue" + (due.map { " (\($0))" } ?? ""))
        case .dueSoon: parts.append(due ?? "due soon")
        case .waiting:
            parts.append("waiting for more than \(Self.worded(age: reminders.waitingAge))")
            if let due { parts.append(due) }
        }
        if let project = item.project { parts.append("project \(project)") }
        return parts.joined(separator: " · ")
    }

    static func urgency(_ item: TodoItem, _ condition: ReminderAlert.Condition) -> DesktopReminder.Urgency {
        if condition == .overdue || item.priority == .high { return .critical }
        return item.priority == .low ? .low : .normal
    }
}

extension TodoListViewModel {
    /// As `snoozeReminder(_:_:until:)`, for `interval` seconds from now ("Snooze 1 h").
    public func snoozeReminder(_ id: TodoID, _ condition: ReminderAlert.Condition, for interval: TimeInterval)
        throws(TodoError) -> ListChangeOutcome
    {
        try snoozeReminder(id, condition, until: clock.currentTime().addingTimeInterval(interval))
    }
}
