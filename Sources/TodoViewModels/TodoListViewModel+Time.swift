import FoundationEssentials
import TodoModel
import TodoViewState

/// What depends on the time: when to tick next, and the tick itself, which
/// fires reminders, re-judges items that turned overdue or stopped waiting,
/// and re-words everything when the day changes.
extension TodoListViewModel {

    /// How long an item may wait undone before it raises a reminder.
    public var reminderAge: TimeInterval { reminders.waitingAge }

    /// Changes how long an item may wait undone before it raises a reminder
    /// (a reloaded configuration). Reminders already fired stay fired; the
    /// next `tick()` fires those the new age makes due.
    public func changeReminderAge(to age: TimeInterval) {
        reminders.waitingAge = age
    }

    /// The next instant at which reminders fire, an item turns overdue, its
    /// wait ends or its scheduled moment comes (`ready` takes it in), or the
    /// day changes (relative dates read differently): when to `tick`.
    public var nextEvent: Date? {
        let now = clock.currentTime()
        var next = nextMidnight(after: now)
        // After the last tick, not now: a snooze that ended since is due at once.
        if let change = desktop.nextChange(after: lastTick, timeZone: clock.timeZone), change < next { next = change }
        for item in collection.items {
            if let event = reminders.nextEvent(of: item, after: now, timeZone: clock.timeZone), event < next { next = event }
            if let change = stateChange(of: item, after: now), change < next { next = change }
        }
        return next
    }

    /// The earliest instant at which an item `step` left changes in a way
    /// only a tick brings to the views: a reminder fires, it turns overdue
    /// (both `Reminders.nextEvent`), or its state changes (`stateChange`).
    /// `now` when the views, which judge items at the last tick, already
    /// see it as it no longer is (`isJudgedDifferently`).
    func nextEvent(of step: UndoStep, after now: Date) -> Date? {
        step.changes.compactMap(\.after).compactMap { item -> Date? in
            if isJudgedDifferently(item, at: now) { return now }
            let events = [reminders.nextEvent(of: item, after: now, timeZone: clock.timeZone), stateChange(of: item, after: now)]
            return events.compactMap { $0 }.min()
        }.min()
    }

    /// When, after `now`, the item's wait ends, its scheduled moment comes
    /// (`ready` takes it in) or it expires (its `until`): each changes the
    /// views it is in, at a moment no command marks.
    func stateChange(of item: TodoItem, after now: Date) -> Date? {
        let timeZone = clock.timeZone
        var next: Date?
        if !item.isDone, let wait = item.wait {
            let end = wait.sortInstant(in: timeZone)
            if end > now { next = end }
        }
        if let start = item.scheduledStart(after: now, in: timeZone), next.map({ start < $0 }) ?? true { next = start }
        if let end = item.expiry(after: now, in: timeZone), next.map({ end < $0 }) ?? true { next = end }
        return next
    }

    /// Whether the item's time-dependent state differs between the last
    /// tick, at which the views judge it, and `now`: it turned overdue,
    /// stopped waiting, reached its scheduled moment, or expired.
    func isJudgedDifferently(_ item: TodoItem, at now: Date) -> Bool {
        let timeZone = clock.timeZone
        return item.isOverdue(at: lastTick, in: timeZone) != item.isOverdue(at: now, in: timeZone)
            || item.isWaiting(at: lastTick, in: timeZone) != item.isWaiting(at: now, in: timeZone)
            || item.isScheduledAhead(at: lastTick, in: timeZone) != item.isScheduledAhead(at: now, in: timeZone)
            || item.hasExpired(at: lastTick, in: timeZone) != item.hasExpired(at: now, in: timeZone)
    }

    /// Brings everything that depends on the time up to date: fires the
    /// reminders that are due (to be stored, so they never fire twice),
    /// updates rows that turned overdue, and re-words every row when the day
    /// has changed. Returns the views' changes and when to tick next.
    public func tick() -> ListChangeOutcome {
        let now = clock.currentTime()
        let due = reminders.due(at: now, items: collection.items, timeZone: clock.timeZone)
        let applied = AppliedChange(
            nextIDBefore: collection.nextID, remindersBefore: due.isEmpty ? nil : reminders)
        let propertiesBefore = self.propertiesBefore()
        reminders.markFired(due)
        cachedAlerts = nil
        cachedDesktop = nil

        var operations: [ViewID: [RowOperation]] = [:]
        let viewClock = ViewClock(now: now, timeZone: clock.timeZone)
        let newDay = CalendarDay(now, in: clock.timeZone) != CalendarDay(lastTick, in: clock.timeZone)
        var inTreesPlaced: Set<TodoID> = []
        if newDay {
            // A new day: relative dates read differently, urgency counts
            // another day, and "today" in queries is another day.
            keys.recompute(today: viewClock.today, titles: keys.hasTitles, items: collection)
            for id in Array(views.keys) {
                let definition = views[id]!.definition
                let compiled = (try? compile(definition.query, at: viewClock)) ?? views[id]!.compiled
                views[id]!.redefine(definition, compiled: compiled, items: collection, keys: keys, clock: viewClock)
                operations[id] = [.reset(rows: rows(of: views[id]!, now: now))]
            }
        } else {
            // Items whose time-dependent state changed (`isJudgedDifferently`):
            // each is taken out of the counters as it was judged before, and
            // placed again as it is judged now. Every view's query is
            // compiled for now even when no item changed: it judges the
            // items commands add or change until the next tick, and those
            // must be judged at this one (`judgingClock`).
            let timeZone = clock.timeZone
            let changed = collection.items.filter { isJudgedDifferently($0, at: now) }
            // A row in a tree brings or takes the path above it: those are
            // placed after, with their paths (`placeRows`). Their keys do
            // not change with the time of day, so none moves.
            let inTrees = Set(changed.filter { keys[$0.id]?.parent != nil || !collection.links.children(of: $0.id).isEmpty }.map(\.id))
            inTreesPlaced = inTrees
            let before = ViewClock(now: lastTick, timeZone: timeZone)
            for id in Array(views.keys) {
                for item in changed { views[id]!.count(item, facts: keys[item.id]?.facts ?? .none, by: -1, clock: before) }
                views[id]!.recompile((try? compile(views[id]!.definition.query, at: viewClock)) ?? views[id]!.compiled)
                for item in changed {
                    views[id]!.count(item, facts: keys[item.id]?.facts ?? .none, by: 1, clock: viewClock)
                    if inTrees.contains(item.id) { continue }
                    let grouped = views[id]!.definition.grouping != nil
                    let tree = views[id]!.isTree
                    let context = views[id]!.contextRows.contains(item.id)
                    func row(_ item: TodoItem, now: Date, grouped: Bool) -> TodoRow {
                        self.row(item, now: now, grouped: grouped, tree: tree, context: context)
                    }
                    switch views[id]!.place(ItemChange(before: item, after: item), newKey: keys[item.id], keys: keys) {
                    case .unchanged: break
                    case .inserted(let at): operations[id, default: []].append(.insert(index: at, row: row(item, now: now, grouped: grouped)))
                    case .removed(let at): operations[id, default: []].append(.remove(index: at))
                    case .updated(let at): operations[id, default: []].append(.update(index: at, row: row(item, now: now, grouped: grouped)))
                    case .moved(let from, let to):
                        operations[id, default: []].append(.move(from: from, to: to, row: row(item, now: now, grouped: grouped)))
                    }
                }
            }
        }
        if !inTreesPlaced.isEmpty {
            var paths: Set<TodoID> = []
            for id in inTreesPlaced {
                var parent = keys[id]?.parent
                while let ancestor = parent, paths.insert(ancestor).inserted { parent = keys[ancestor]?.parent }
            }
            let ids = (inTreesPlaced.union(paths)).sorted { (keys[$0]?.depth ?? 0, $0) < (keys[$1]?.depth ?? 0, $1) }
            var rows = RowCache()
            for index in viewIndices {
                placeRows(ids, inView: index, moved: [], reworded: inTreesPlaced, paths: paths, rows: &rows, now: now, into: &operations)
            }
        }
        lastTick = now
        cachedDesktop = nil  // judged at the last tick, which just moved
        return ListChangeOutcome(
            changes: changeSets(since: propertiesBefore, operations: operations),
            write: due.isEmpty ? nil : ListWrite(firedReminders: due), applied: applied, nextEvent: nextEvent)
    }

    private func nextMidnight(after now: Date) -> Date {
        CalendarDay(now, in: clock.timeZone).start(in: clock.timeZone)
            .addingDays(1, in: clock.timeZone)
    }
}
