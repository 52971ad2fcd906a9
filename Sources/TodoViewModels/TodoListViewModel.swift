import Foundation
import TodoModel

/// The list view model: owns the in-memory picture of the to-do list, turns
/// commands into the write each needs, and tells every open view what
/// changed, as property values and row edits.
///
/// **A state machine without I/O.** It starts from a `ListSnapshot` and never
/// reads or writes a store: every change returns what to store (`ListWrite`)
/// beside each view's change set, and is applied to memory at once. The state
/// owner in the daemon stores the writes in the order they were made and
/// acknowledges them once durable; if a write fails, the owner hands back the
/// `AppliedChange` of every change not yet stored, newest first, and `revert`
/// restores memory to what the store holds. Tests drive it in-process with a
/// fixed clock and no store at all.
///
/// It is not thread-safe by design: the daemon confines it to its state
/// owner, the single serial place every mutation goes through.
public final class TodoListViewModel {
    private let clock: TodoClock
    private let wording: DateWording
    private var collection: TodoCollection
    private var history: UndoHistory
    private var keys: SortKeys
    private var views: [ViewID: ListView] = [:]
    /// The shared views' options as stored (those ever set).
    private var savedViewSettings: [String: ViewSettings]
    private var completedCount: Int
    private var reminders: Reminders
    /// The last instant rows and reminders were brought up to date with.
    private var lastTick: Date
    private var cachedAlerts: [ReminderAlert]?

    /// Beyond this many item changes in one command, views send their rows
    /// whole instead of one edit per row.
    public static let resetThreshold = 64

    public let addPrompt = AddPromptViewModel()

    /// Starts from `snapshot` and opens the shared view `main` with its saved
    /// filter and sort. An item undone for longer than `reminderAge` seconds
    /// raises a reminder, as does an overdue one.
    public init(snapshot: ListSnapshot, clock: TodoClock = TodoClock(), reminderAge: TimeInterval = 86_400) {
        self.clock = clock
        wording = DateWording(timeZone: clock.timeZone)
        collection = TodoCollection(items: snapshot.items, nextID: snapshot.nextID)
        history = snapshot.history
        keys = SortKeys(timeZone: clock.timeZone, items: snapshot.items)
        completedCount = snapshot.items.count(where: \.isDone)
        reminders = Reminders(waitingAge: reminderAge, fired: snapshot.firedReminders, items: collection)
        lastTick = clock.currentTime()
        savedViewSettings = snapshot.viewSettings
        for (name, settings) in snapshot.viewSettings {
            views[.shared(name)] = ListView(filter: settings.filter, sort: settings.sort, items: collection, keys: keys)
        }
        if views[.main] == nil {
            views[.main] = ListView(filter: .all, sort: .created, items: collection, keys: keys)
        }
    }

    public var itemCount: Int { collection.count }

    /// Everything the store should hold now: for tests that check memory and
    /// store agree, and for copying a list.
    public var snapshot: ListSnapshot {
        ListSnapshot(
            items: collection.items.values.sorted { $0.id < $1.id }, nextID: collection.nextID, history: history,
            viewSettings: savedViewSettings, firedReminders: reminders.fired)
    }

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
        return TodoListState(properties: properties(of: view), rows: rows(of: view, now: clock.currentTime()))
    }

    /// Changes a view's filter and sort. A shared view's are stored (they
    /// survive restarts) and every client on it sees the change. Nil when
    /// the view does not exist or nothing changes.
    public func setOptions(of id: ViewID, filter: ListFilter?, sort: ListSort?) -> ListChangeOutcome? {
        guard let view = views[id] else { return nil }
        let filter = filter ?? view.filter
        let sort = sort ?? view.sort
        guard filter != view.filter || sort != view.sort else { return nil }
        var write: ListWrite?
        var applied = AppliedChange(nextIDBefore: collection.nextID, viewOptionsBefore: (id, view.filter, view.sort))
        if case .shared(let name) = id {
            write = ListWrite(viewSettings: [name: ViewSettings(filter: filter, sort: sort)])
            applied.savedSettingsBefore = (name, savedViewSettings[name])
            savedViewSettings[name] = ViewSettings(filter: filter, sort: sort)
        }
        let before = properties(of: view)
        views[id]!.setOptions(filter: filter, sort: sort, items: collection, keys: keys)
        let after = properties(of: views[id]!)
        let change = TodoListChange(
            properties: after, changedKeys: after.changedKeys(since: before),
            rowOperations: [.reset(rows: rows(of: views[id]!, now: clock.currentTime()))])
        return ListChangeOutcome(changes: [id: change], write: write, applied: applied)
    }

    // MARK: Commands

    /// Carries out a command: validates it, applies it to memory and returns
    /// what to store and what each view shows. A refused command changes nothing.
    public func perform(_ command: TodoCommand) throws(TodoError) -> CommandOutcome {
        let now = clock.currentTime()
        let (planned, subject) = try plan(command, at: now)
        guard let (step, historyChange) = planned else {
            return CommandOutcome(row: subject.flatMap { collection[$0] }.map { row($0, now: now) }, description: nil, changes: [:])
        }
        let (changes, applied) = apply(step, historyChange, at: now)
        let description: String
        switch historyChange {
        case .record: description = step.description
        case .undo: description = UndoWording.said(.undid, step) { wording.due($0, now: now) }
        case .redo: description = UndoWording.said(.redid, step) { wording.due($0, now: now) }
        }
        return CommandOutcome(
            row: subject.flatMap { collection[$0] }.map { row($0, now: now) }, description: description,
            changes: changes, write: ListWrite(changes: step.changes, historyChange: historyChange), applied: applied,
            nextEvent: nextEvent(of: step, after: now))
    }

    /// Carries out several commands all or nothing: each is planned on the
    /// state the ones before it leave, and together they are stored as one
    /// write, recorded as one undo step and reported as one change set per
    /// view. The first refused command refuses the whole transaction
    /// (`TransactionError` says which; memory is as before); undo and redo
    /// cannot be part of one.
    public func perform(transaction commands: [TodoCommand]) throws(TransactionError) -> TransactionOutcome {
        let now = clock.currentTime()
        let nextIDBefore = collection.nextID
        var steps: [UndoStep] = []
        var results: [TransactionOutcome.Result] = []
        // Each command is planned on the items as the ones before it leave
        // them (applied to the collection alone, in place); the views see
        // only the transaction's net change, once.
        func restoreItems() {
            for step in steps.reversed() { collection.apply(step.inverse) }
            collection.restoreNextID(nextIDBefore)
        }
        for (index, command) in commands.enumerated() {
            do throws(TodoError) {
                if command == .undo || command == .redo { throw TodoError.undoInTransaction }
                let (planned, subject) = try plan(command, at: now)
                if let step = planned?.0 {
                    collection.apply(step)
                    steps.append(step)
                }
                results.append(.init(subject: subject, description: planned?.0.description))
            } catch {
                restoreItems()
                throw TransactionError(index: index, error: error)
            }
        }
        // The rows the results report, as the whole transaction leaves them
        // (read now: copying the collection would copy every item).
        let subjects = Set(results.compactMap(\.subject))
        let afterAll = Dictionary(uniqueKeysWithValues: subjects.compactMap { id in collection[id].map { (id, $0) } })
        restoreItems()
        var outcome = TransactionOutcome(results: [], description: nil, changes: [:])
        if let merged = UndoStep(merging: steps) {
            let (changes, applied) = apply(merged, .record(merged), at: now)
            outcome.changes = changes
            outcome.applied = applied
            outcome.description = merged.description
            outcome.write = ListWrite(changes: merged.changes, historyChange: .record(merged))
            outcome.nextEvent = nextEvent(of: merged, after: now)
        }
        outcome.results = results.map { result in
            var result = result
            result.row = result.subject.flatMap { afterAll[$0] }.map { row($0, now: now) }
            return result
        }
        return outcome
    }

    /// Takes back a change whose write failed. Changes must be reverted
    /// newest first, and every change made after a reverted one must be
    /// reverted before it (they were planned on top of it).
    public func revert(_ applied: AppliedChange) {
        let now = clock.currentTime()
        var discarded: [ViewID: [RowOperation]] = [:]
        applyItems(applied.itemChanges.reversed().map(\.inverse), at: now, into: &discarded)
        if let move = applied.historyMove { history.revert(move) }
        collection.restoreNextID(applied.nextIDBefore)
        if let remindersBefore = applied.remindersBefore { reminders = remindersBefore }
        if let lastTickBefore = applied.lastTickBefore { lastTick = lastTickBefore }
        if let (id, filter, sort) = applied.viewOptionsBefore, views[id] != nil {
            views[id]!.setOptions(filter: filter, sort: sort, items: collection, keys: keys)
        }
        if let (name, settings) = applied.savedSettingsBefore { savedViewSettings[name] = settings }
        cachedAlerts = nil
    }

    /// Applies a planned step and its history move; returns each view's change set.
    private func apply(_ step: UndoStep, _ historyChange: ListWrite.HistoryChange, at now: Date)
        -> ([ViewID: TodoListChange], AppliedChange)
    {
        let propertiesBefore = views.mapValues(properties(of:))
        var applied = AppliedChange(itemChanges: step.changes, nextIDBefore: collection.nextID)
        var operations: [ViewID: [RowOperation]] = [:]
        applyItems(step.changes, at: now, into: &operations)
        switch historyChange {
        case .record(let recorded): applied.historyMove = history.record(recorded)
        case .undo:
            _ = history.undo()
            applied.historyMove = .undone
        case .redo:
            _ = history.redo()
            applied.historyMove = .redone
        }
        return (changeSets(since: propertiesBefore, operations: operations), applied)
    }

    /// Each view's change set: properties that differ from `before`, and the row edits.
    private func changeSets(since before: [ViewID: TodoListProperties], operations: [ViewID: [RowOperation]])
        -> [ViewID: TodoListChange]
    {
        var changes: [ViewID: TodoListChange] = [:]
        let now = clock.currentTime()
        for (id, view) in views {
            let after = properties(of: view)
            var rowOperations = operations[id] ?? []
            if rowOperations.count > Self.resetThreshold { rowOperations = [.reset(rows: rows(of: view, now: now))] }
            let change = TodoListChange(
                properties: after,
                changedKeys: before[id].map { after.changedKeys(since: $0) } ?? [],
                rowOperations: rowOperations)
            if !change.isEmpty { changes[id] = change }
        }
        return changes
    }

    private func nextEvent(of step: UndoStep, after now: Date) -> Date? {
        step.changes.compactMap(\.after).compactMap {
            reminders.nextEvent(of: $0, after: now, timeZone: clock.timeZone)
        }.min()
    }

    /// The step a command makes and how it moves the history (nil when it
    /// would change nothing), and the item it is about.
    private func plan(_ command: TodoCommand, at now: Date) throws(TodoError)
        -> (step: (UndoStep, ListWrite.HistoryChange)?, subject: TodoID?)
    {
        func recorded(_ step: UndoStep?, _ subject: TodoID?) -> ((UndoStep, ListWrite.HistoryChange)?, TodoID?) {
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
            if let reason = step.readFailure { throw .unreadableStep(description: step.description, reason: reason) }
            return ((step.inverse, .undo), nil)
        case .redo:
            guard let step = history.nextRedo else { throw .nothingToRedo }
            if let reason = step.readFailure { throw .unreadableStep(description: step.description, reason: reason) }
            return ((step, .redo), nil)
        }
    }

    /// Applies item changes to the collection, the counters, the reminders
    /// and every view, in place, appending each view's row edits.
    private func applyItems(_ changes: [ItemChange], at now: Date, into operations: inout [ViewID: [RowOperation]]) {
        collection.apply(UndoStep(description: "", changes: changes))
        for change in changes {
            if change.before?.isDone == true { completedCount -= 1 }
            if change.after?.isDone == true { completedCount += 1 }
            reminders.itemChanged(change.id, to: change.after)
        }
        cachedAlerts = nil
        if changes.count > Self.resetThreshold {
            // Re-sorting each view beats placing thousands of rows one by one.
            for change in changes { keys.update(change.id, to: change.after) }
            for index in views.values.indices {
                let touched = changes.contains { views.values[index].includes($0.before) || views.values[index].includes($0.after) }
                views.values[index].rebuild(collection, keys: keys)
                if touched {
                    operations[views.keys[index], default: []].append(.reset(rows: rows(of: views.values[index], now: now)))
                }
            }
            return
        }
        for change in changes {
            let newKey = change.after.map(keys.key(for:))
            let newRow = change.after.map { row($0, now: now) }
            for index in views.values.indices {
                // In place: `views.values[index]` is mutated where it lives.
                let placement = views.values[index].place(change, newKey: newKey, keys: keys)
                let operation: RowOperation
                switch placement {
                case .unchanged: continue
                case .inserted(let at): operation = .insert(index: at, row: newRow!)
                case .removed(let at): operation = .remove(index: at)
                case .updated(let at): operation = .update(index: at, row: newRow!)
                case .moved(let from, let to): operation = .move(from: from, to: to, row: newRow!)
                }
                operations[views.keys[index], default: []].append(operation)
            }
            keys.update(change.id, to: change.after)
        }
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
    /// reminders that are due (to be stored, so they never fire twice),
    /// updates rows that turned overdue, and re-words every row when the day
    /// has changed. Returns the views' changes and when to tick next.
    public func tick() -> ListChangeOutcome {
        let now = clock.currentTime()
        let due = reminders.due(at: now, items: collection.items.values, timeZone: clock.timeZone)
        let applied = AppliedChange(
            nextIDBefore: collection.nextID, remindersBefore: due.isEmpty ? nil : reminders, lastTickBefore: lastTick)
        let propertiesBefore = views.mapValues(properties(of:))
        reminders.markFired(due)
        cachedAlerts = nil

        var operations: [ViewID: [RowOperation]] = [:]
        if CalendarDay(now, in: clock.timeZone) != CalendarDay(lastTick, in: clock.timeZone) {
            for (id, view) in views {
                operations[id] = [.reset(rows: rows(of: view, now: now))]
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
        return ListChangeOutcome(
            changes: changeSets(since: propertiesBefore, operations: operations),
            write: due.isEmpty ? nil : ListWrite(firedReminders: due), applied: applied, nextEvent: nextEvent)
    }

    private func nextMidnight(after now: Date) -> Date {
        CalendarDay(now, in: clock.timeZone).start(in: clock.timeZone)
            .addingDays(1, in: clock.timeZone)
    }

    // MARK: Presentation

    private func rows(of view: ListView, now: Date) -> [TodoRow] {
        view.order.compactMap { collection[$0] }.map { row($0, now: now) }
    }

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
