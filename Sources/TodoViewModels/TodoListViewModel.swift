import Foundation
import TodoModel

/// The list view model: owns the in-memory picture of the to-do list, turns
/// commands into one durable store write each, and tells every open view what
/// changed, as property values and row edits.
///
/// It does no I/O of its own: the store and the clock are injected, so tests
/// run it in-process with an in-memory store and a fixed time. It is not
/// thread-safe by design; the daemon confines it to one actor, the single
/// serial place every mutation goes through.
public final class TodoListViewModel {
    private let store: any TodoStore
    private let clock: TodoClock
    private let wording: DateWording
    private var collection: TodoCollection
    private var history: UndoHistory
    private var keys: SortKeys
    private var views: [ViewID: ListView] = [:]
    private var completedCount: Int
    private var reminders: Reminders
    /// The last instant rows and reminders were brought up to date with.
    private var lastTick: Date
    private var cachedAlerts: [ReminderAlert]?

    /// Beyond this many item changes in one command, views send their rows
    /// whole instead of one edit per row.
    public static let resetThreshold = 64

    public let addPrompt = AddPromptViewModel()

    /// Loads everything from `store` and opens the shared view `main` with
    /// its saved filter and sort. An item undone for longer than
    /// `reminderAge` seconds raises a reminder, as does an overdue one.
    public init(store: any TodoStore, clock: TodoClock = TodoClock(), reminderAge: TimeInterval = 86_400) throws {
        let stored = try store.load()
        self.store = store
        self.clock = clock
        wording = DateWording(timeZone: clock.timeZone)
        collection = TodoCollection(items: stored.items, nextID: stored.nextID)
        history = stored.history
        keys = SortKeys(timeZone: clock.timeZone, items: stored.items)
        completedCount = stored.items.count(where: \.isDone)
        reminders = Reminders(waitingAge: reminderAge, fired: stored.firedReminders, items: collection)
        lastTick = clock.currentTime()
        for (name, settings) in stored.viewSettings {
            views[.shared(name)] = ListView(
                filter: ListFilter(rawValue: settings.filter) ?? .all,
                sort: ListSort(rawValue: settings.sort) ?? .created,
                items: collection, keys: keys)
        }
        if views[.main] == nil {
            views[.main] = ListView(filter: .all, sort: .created, items: collection, keys: keys)
        }
    }

    public var itemCount: Int { collection.count }

    // MARK: Views

    /// Opens a view (a shared one that exists is joined as it is) and returns its state.
    @discardableResult
    public func openView(_ id: ViewID, filter: ListFilter = .all, sort: ListSort = .created) -> TodoListState {
        if views[id] == nil {
            views[id] = ListView(filter: filter, sort: sort, items: collection, keys: keys)
        }
        return state(of: id)!
    }

    /// Forgets a client's own view. Shared views stay.
    public func closeView(_ id: ViewID) {
        if case .own = id { views[id] = nil }
    }

    public func state(of id: ViewID) -> TodoListState? {
        guard let view = views[id] else { return nil }
        let now = clock.currentTime()
        return TodoListState(
            properties: properties(of: view),
            rows: view.order.compactMap { collection[$0] }.map { row($0, now: now) })
    }

    /// Changes a view's filter and sort. A shared view's are stored first
    /// (they survive restarts), then every client on it sees the change.
    public func setOptions(of id: ViewID, filter: ListFilter?, sort: ListSort?) throws -> TodoListChange? {
        guard var view = views[id] else { return nil }
        let filter = filter ?? view.filter
        let sort = sort ?? view.sort
        guard filter != view.filter || sort != view.sort else { return nil }
        if case .shared(let name) = id {
            try store.commit(StoreWrite(viewSettings: [name: ViewSettings(filter: filter.rawValue, sort: sort.rawValue)]))
        }
        let before = properties(of: view)
        view.setOptions(filter: filter, sort: sort, items: collection, keys: keys)
        views[id] = view
        let now = clock.currentTime()
        let after = properties(of: view)
        return TodoListChange(
            properties: after, changedKeys: after.changedKeys(since: before),
            rowOperations: [.reset(rows: view.order.compactMap { collection[$0] }.map { row($0, now: now) })])
    }

    // MARK: Commands

    /// Carries out a command: validates it, stores it (one transaction), then
    /// updates the views. If validation or the store fails, nothing changes.
    public func perform(_ command: TodoCommand) throws -> CommandOutcome {
        let now = clock.currentTime()
        let (planned, subject) = try plan(command, at: now, on: collection)
        guard let (step, historyChange) = planned else {
            return CommandOutcome(row: subject.flatMap { collection[$0] }.map { row($0, now: now) }, description: nil, changes: [:])
        }
        let (changes, nextEvent) = try commit(step, historyChange, at: now)
        return CommandOutcome(
            // An undo step's inverse keeps its description, so this reads
            // right for undo and redo too: "add “buy milk”".
            row: subject.flatMap { collection[$0] }.map { row($0, now: now) }, description: step.description,
            changes: changes, nextEvent: nextEvent)
    }

    /// Carries out several commands all or nothing: each is planned on the
    /// state the ones before it leave, and together they are stored as one
    /// transaction, recorded as one undo step and reported as one change set
    /// per view. The first refused command refuses the whole transaction
    /// (`TransactionError` says which); undo and redo cannot be part of one.
    public func perform(transaction commands: [TodoCommand]) throws -> TransactionOutcome {
        let now = clock.currentTime()
        var scratch = collection
        var steps: [UndoStep] = []
        var results: [TransactionOutcome.Result] = []
        for (index, command) in commands.enumerated() {
            do {
                if command == .undo || command == .redo { throw TodoError.undoInTransaction }
                let (planned, subject) = try plan(command, at: now, on: scratch)
                if let step = planned?.0 {
                    scratch.apply(step)
                    steps.append(step)
                }
                results.append(.init(subject: subject, description: planned?.0.description))
            } catch let error as TodoError {
                throw TransactionError(index: index, error: error)
            }
        }
        var outcome = TransactionOutcome(results: [], description: nil, changes: [:])
        if let merged = UndoStep(merging: steps) {
            (outcome.changes, outcome.nextEvent) = try commit(merged, .record(merged), at: now)
            outcome.description = merged.description
        }
        outcome.results = results.map { result in
            var result = result
            result.row = result.subject.flatMap { collection[$0] }.map { row($0, now: now) }
            return result
        }
        return outcome
    }

    /// Stores a step, then applies it to the collection, the history and
    /// every view, and returns each view's change set.
    private func commit(_ step: UndoStep, _ historyChange: StoreWrite.HistoryChange, at now: Date) throws
        -> ([ViewID: TodoListChange], Date?)
    {
        try store.commit(StoreWrite(changes: step.changes, historyChange: historyChange))

        let propertiesBefore = views.mapValues(properties(of:))
        collection.apply(step)
        switch historyChange {
        case .record(let recorded): history.record(recorded)
        case .undo: _ = history.undo()
        case .redo: _ = history.redo()
        }
        for change in step.changes {
            if change.before?.isDone == true { completedCount -= 1 }
            if change.after?.isDone == true { completedCount += 1 }
            reminders.itemChanged(change.id, to: change.after)
        }
        cachedAlerts = nil
        var operations = updateViews(with: step.changes, now: now)

        var changes: [ViewID: TodoListChange] = [:]
        for (id, view) in views {
            let after = properties(of: view)
            let change = TodoListChange(
                properties: after,
                changedKeys: after.changedKeys(since: propertiesBefore[id]!),
                rowOperations: operations.removeValue(forKey: id) ?? [])
            if !change.isEmpty { changes[id] = change }
        }
        let nextEvent = step.changes.compactMap(\.after).compactMap {
            reminders.nextEvent(of: $0, after: now, timeZone: clock.timeZone)
        }.min()
        return (changes, nextEvent)
    }

    /// The step a command makes and how it moves the history (nil when it
    /// would change nothing), and the item it is about.
    private func plan(_ command: TodoCommand, at now: Date, on collection: TodoCollection) throws(TodoError)
        -> (step: (UndoStep, StoreWrite.HistoryChange)?, subject: TodoID?)
    {
        func recorded(_ step: UndoStep?, _ subject: TodoID?) -> ((UndoStep, StoreWrite.HistoryChange)?, TodoID?) {
            (step.map { ($0, .record($0)) }, subject)
        }
        switch command {
        case .add(let title, let due):
            let step = try collection.add(title: title, due: due, at: now)
            return recorded(step, step.changes.first?.id)
        case .edit(let id, let title):
            return recorded(try collection.edit(id, title: title, at: now), id)
        case .setDone(let id, let done):
            return recorded(try collection.setDone(id, done, at: now), id)
        case .setDue(let id, let due):
            return recorded(try collection.setDue(id, due, at: now), id)
        case .delete(let id):
            return recorded(try collection.delete(id), nil)
        case .toggleAll:
            return recorded(collection.toggleAll(at: now), nil)
        case .clearCompleted:
            return recorded(collection.clearCompleted(), nil)
        case .undo:
            guard let step = history.nextUndo else { throw .nothingToUndo }
            return ((step.inverse, .undo), nil)
        case .redo:
            guard let step = history.nextRedo else { throw .nothingToRedo }
            return ((step, .redo), nil)
        }
    }

    /// Moves each changed item's row in every view: old row out (keys as
    /// placed), keys updated, new row in. Returns each view's row edits.
    private func updateViews(with changes: [ItemChange], now: Date) -> [ViewID: [RowOperation]] {
        var operations: [ViewID: [RowOperation]] = [:]
        if changes.count > Self.resetThreshold {
            for change in changes { keys.update(change.id, to: change.after) }
            for (id, var view) in views {
                let before = view.order
                view.rebuild(collection, keys: keys)
                views[id] = view
                let touched = changes.contains { view.includes($0.before) || view.includes($0.after) }
                if before != view.order || touched {
                    operations[id] = [.reset(rows: view.order.compactMap { collection[$0] }.map { row($0, now: now) })]
                }
            }
            return operations
        }
        for change in changes {
            var removedAt: [ViewID: Int] = [:]
            for (id, var view) in views {
                removedAt[id] = view.removeRow(of: change.before, keys: keys)
                views[id] = view
            }
            keys.update(change.id, to: change.after)
            for (id, var view) in views {
                let insertedAt = view.insertRow(of: change.after, keys: keys)
                views[id] = view
                switch (removedAt[id], insertedAt) {
                case let (old?, new?) where old == new:
                    operations[id, default: []].append(.update(index: new, row: row(change.after!, now: now)))
                case let (old?, new?):
                    operations[id, default: []].append(.move(from: old, to: new, row: row(change.after!, now: now)))
                case let (old, new):
                    if let old { operations[id, default: []].append(.remove(index: old)) }
                    if let new { operations[id, default: []].append(.insert(index: new, row: row(change.after!, now: now))) }
                }
            }
        }
        return operations
    }

    // MARK: Time

    /// How long an item may wait undone before it raises a reminder.
    public var reminderAge: TimeInterval { reminders.waitingAge }

    /// Changes how long an item may wait undone before it raises a reminder
    /// (a reloaded configuration). Reminders already fired stay fired; the
    /// next `tick()` fires those the new age makes due.
    public func changeReminderAge(to age: TimeInterval) {
        reminders.waitingAge = age
    }

    /// The next instant at which reminders fire, an item turns overdue, or
    /// the day changes (relative dates read differently): when to `tick`.
    public var nextEvent: Date? {
        let now = clock.currentTime()
        let items = collection.items.values.compactMap { reminders.nextEvent(of: $0, after: now, timeZone: clock.timeZone) }
        return ([nextMidnight(after: now)] + items).min()
    }

    /// Brings everything that depends on the time up to date: fires the
    /// reminders that are due (stored first, so they never fire twice),
    /// updates rows that turned overdue, and re-words every row when the day
    /// has changed. Returns the views' changes and when to tick next.
    public func tick() throws -> TickOutcome {
        let now = clock.currentTime()
        let due = reminders.due(at: now, items: collection.items.values, timeZone: clock.timeZone)
        if !due.isEmpty {
            try store.commit(StoreWrite(firedReminders: due))
        }
        let propertiesBefore = views.mapValues(properties(of:))
        reminders.markFired(due)
        cachedAlerts = nil

        var operations: [ViewID: [RowOperation]] = [:]
        if CalendarDay(now, in: clock.timeZone) != CalendarDay(lastTick, in: clock.timeZone) {
            for (id, view) in views {
                operations[id] = [.reset(rows: view.order.compactMap { collection[$0] }.map { row($0, now: now) })]
            }
        } else {
            let turnedOverdue = collection.items.values.filter {
                !$0.isOverdue(at: lastTick, in: clock.timeZone) && $0.isOverdue(at: now, in: clock.timeZone)
            }
            for item in turnedOverdue {
                for (id, view) in views {
                    if let index = view.index(of: item, keys: keys) {
                        operations[id, default: []].append(.update(index: index, row: row(item, now: now)))
                    }
                }
            }
        }
        lastTick = now

        var changes: [ViewID: TodoListChange] = [:]
        for (id, view) in views {
            let after = properties(of: view)
            let change = TodoListChange(
                properties: after, changedKeys: after.changedKeys(since: propertiesBefore[id]!),
                rowOperations: operations[id] ?? [])
            if !change.isEmpty { changes[id] = change }
        }
        return TickOutcome(changes: changes, nextEvent: nextEvent)
    }

    private func nextMidnight(after now: Date) -> Date {
        CalendarDay(now, in: clock.timeZone).start(in: clock.timeZone)
            .addingDays(1, in: clock.timeZone)
    }

    // MARK: Presentation

    private func properties(of view: ListView) -> TodoListProperties {
        let total = collection.count
        let active = total - completedCount
        return TodoListProperties(
            filter: view.filter,
            sort: view.sort,
            itemsLeft: ListWording.itemsLeft(activeCount: active),
            activeCount: active,
            completedCount: completedCount,
            totalCount: total,
            allDone: total > 0 && active == 0,
            canClearCompleted: completedCount > 0,
            emptyText: view.order.isEmpty ? ListWording.emptyText(filter: view.filter, totalCount: total) : nil,
            canUndo: history.nextUndo != nil,
            undoText: history.nextUndo.map { "Undo \($0.description)" },
            canRedo: history.nextRedo != nil,
            redoText: history.nextRedo.map { "Redo \($0.description)" },
            alerts: alerts(),
            alertCount: reminders.alertCount
        )
    }

    private func alerts() -> [ReminderAlert] {
        if let cachedAlerts { return cachedAlerts }
        let now = clock.currentTime()
        let alerts = reminders.alerts(items: collection) { item, condition in
            let title = "\u{201C}\(item.title)\u{201D}"
            switch condition {
            case .waiting: return "\(title) has waited for more than \(Self.worded(age: reminders.waitingAge))"
            case .overdue: return "\(title) is overdue (\(item.due.map { wording.due($0, now: now) } ?? "due"))"
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

    private func row(_ item: TodoItem, now: Date) -> TodoRow {
        TodoRow(
            id: item.id.rawValue,
            title: item.title,
            done: item.isDone,
            createdText: wording.created(item.createdAt, now: now),
            dueText: item.due.map { wording.due($0, now: now) },
            overdue: item.isOverdue(at: now, in: clock.timeZone)
        )
    }
}

private extension ListView {
    func includes(_ item: TodoItem?) -> Bool { item.map(includes) ?? false }
}
