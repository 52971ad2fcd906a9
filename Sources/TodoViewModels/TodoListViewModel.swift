import FoundationEssentials
import TodoModel
import TodoViewState

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
    let clock: TodoClock
    let wording: DateWording
    var collection: TodoCollection
    var history: UndoHistory
    var keys: SortKeys
    var views: [ViewID: ListView] = [:]
    /// The named views as stored (those ever saved or changed).
    var savedViewSettings: [String: ViewSettings]
    /// Done items in the whole list (toggle-all and clear-completed act on all).
    var completedCount: Int
    var reminders: Reminders
    /// Which raised reminders belong on the desktop (snoozes, dismissals, quiet hours).
    var desktop: DesktopReminders
    /// The last instant rows and reminders were brought up to date with.
    var lastTick: Date
    var cachedAlerts: [ReminderAlert]?
    /// `desktopReminders`, found once per change like `cachedAlerts`.
    var cachedDesktop: [DesktopReminder]?
    /// The last plain row (not grouped, not in a tree) placing a change
    /// built, worded at the change's moment: the row a command's reply
    /// shows for that item, so it is not built twice (`perform`).
    var lastPlainRow: (id: TodoID, now: Date, row: TodoRow)?

    /// Beyond this many item changes in one command, views send their rows
    /// whole instead of one edit per row.
    public static let resetThreshold = 64

    /// Every edit updates every view, so their number is bounded.
    public static let maximumNamedViews = 100

    public let addPrompt = AddPromptViewModel()
    /// The list's own identity (`ListSnapshot.listID`), from which exports
    /// derive the identities of items made here.
    public let listID: String
    /// The fields declared for the list: built in, and from todod.conf.
    /// Shorthand, queries, sorts, rows and the formats read them here;
    /// `replaceFields` (on SIGHUP) changes them.
    public internal(set) var fields: FieldCatalog
    /// The instance's name when several share the list (`todod --instance`):
    /// new undo steps say where they were made. Nil for a list of one.
    public var origin: String?

    /// Starts from `snapshot` and opens the shared view `main` with its saved
    /// filter and sort. An item undone for longer than `reminderAge` seconds
    /// raises a reminder, as does an overdue one.
    /// `desktop` says how reminders reach the desktop, and `dueSoonLead` how
    /// long before its due time an item raises a "due soon" reminder (0: never).
    public init(
        snapshot: ListSnapshot, clock: TodoClock = TodoClock(), reminderAge: TimeInterval = 86_400,
        desktop: DesktopReminderSettings = DesktopReminderSettings(), dueSoonLead: TimeInterval = 0,
        fields: FieldCatalog = .builtIn
    ) {
        self.clock = clock
        self.fields = fields
        listID = snapshot.listID
        wording = DateWording(timeZone: clock.timeZone)
        collection = TodoCollection(items: snapshot.items, nextID: snapshot.nextID)
        history = snapshot.history
        lastTick = clock.currentTime()
        let viewClock = ViewClock(now: lastTick, timeZone: clock.timeZone)
        let definitions = snapshot.viewSettings.mapValues { ViewDefinition($0, fields: fields) }
        keys = SortKeys(
            timeZone: clock.timeZone, today: viewClock.today, items: collection,
            titles: definitions.values.contains { Self.sortsByTitle($0) })
        completedCount = snapshot.items.count(where: \.isDone)
        reminders = Reminders(waitingAge: reminderAge, fired: snapshot.firedReminders, items: collection)
        reminders.dueSoonLead = dueSoonLead
        self.desktop = DesktopReminders(settings: desktop, states: snapshot.desktopReminders)
        savedViewSettings = snapshot.viewSettings
        for (name, definition) in definitions {
            views[.shared(name)] = makeView(definition, at: viewClock)
        }
        if views[.main] == nil {
            views[.main] = makeView(ViewDefinition(), at: viewClock)
        }
    }

    /// A view of the current items; a stored query whose dates no longer
    /// read (they always should) shows every item rather than failing the start.
    private func makeView(_ definition: ViewDefinition, at viewClock: ViewClock) -> ListView {
        let compiled = (try? compile(definition.query, at: viewClock)) ?? (try! compile(.all, at: viewClock))
        return ListView(definition: definition, compiled: compiled, items: collection, keys: keys, clock: viewClock)
    }

    /// The query with its dates read at `viewClock`'s moment, in the list's time zone.
    func compile(_ query: Query, at viewClock: ViewClock) throws(TodoError) -> CompiledQuery {
        let dates = NaturalDateParser(now: viewClock.now, timeZone: viewClock.timeZone)
        do {
            return try query.compile(
                resolvingDates: { text throws(TodoError) in
                    do throws(NaturalDateError) { return try dates.parse(text) } catch { throw TodoError.invalidDate(field: .due, text: text, error) }
                }, timeZone: viewClock.timeZone, now: viewClock.now)
        } catch let error as TodoError {
            throw error
        } catch {
            throw .invalidQuery(String(describing: error))
        }
    }

    /// Refuses a sort by a field the list does not declare, when a view is
    /// set. A view already stored keeps its sort (a field removed from
    /// todod.conf sorts its orphaned values, or none), so stored views still
    /// open after a restart and views another instance saved still show.
    private func checkSort(_ sort: ListSort) throws(TodoError) {
        if let problem = sort.problem(with: fields) { throw .invalidSort(problem) }
    }

    private static func sortsByTitle(_ definition: ViewDefinition) -> Bool {
        definition.sort.keys.contains { $0.field == .title }
    }

    /// Makes the sort keys hold natural-order titles if a view needs them.
    func prepareKeys(for definition: ViewDefinition) {
        if Self.sortsByTitle(definition) && !keys.hasTitles {
            keys.recompute(today: keys.today, titles: true, items: collection)
        }
    }

    /// The moment views judge items at (their queries, counters and which
    /// items wait): the last tick, not the current time; rows are still
    /// worded at the current time.
    ///
    /// Between the moment an item turns overdue or stops waiting and the
    /// tick that follows it, commands and new views must still see the item
    /// as it was, because that tick takes each such item out of the counters
    /// as judged at the last tick and puts it back as judged now. A view that
    /// judged it at a later moment would count it twice, or take away what
    /// it never counted (an overdue count of -1 after completing an item
    /// just past its due time).
    var judgingClock: ViewClock { ViewClock(now: lastTick, timeZone: clock.timeZone) }

    public var itemCount: Int { collection.count }

    /// The id the next new item takes.
    public var nextID: TodoID { collection.nextID }

    /// Everything the store should hold now: for tests that check memory and
    /// store agree, and for copying a list.
    public var snapshot: ListSnapshot {
        ListSnapshot(
            items: collection.items.sorted { $0.id < $1.id }, nextID: collection.nextID, history: history,
            viewSettings: savedViewSettings, firedReminders: reminders.fired, listID: listID,
            desktopReminders: desktop.states)
    }

    // MARK: Views

    /// Opens a view and returns its state. A named view that exists is
    /// joined as it is (`definition` is not used); `main` always exists; any
    /// other name must have been saved (`saveView`). A client's own view
    /// (`.own`) is made with `definition`.
    @discardableResult
    public func openView(_ id: ViewID, definition: ViewDefinition = ViewDefinition()) throws(TodoError) -> TodoListState {
        if views[id] == nil {
            if case .shared(let name) = id { throw .viewNotFound(name) }
            try checkSort(definition.sort)
            prepareKeys(for: definition)
            let viewClock = judgingClock
            views[id] = ListView(
                definition: definition, compiled: try compile(definition.query, at: viewClock), items: collection,
                keys: keys, clock: viewClock)
        }
        return state(of: id)!
    }

    /// Forgets a client's own view. Named views stay.
    public func closeView(_ id: ViewID) {
        if case .own = id { views[id] = nil }
    }

    public func state(of id: ViewID) -> TodoListState? {
        guard let view = views[id] else { return nil }
        return TodoListState(properties: properties(of: view), rows: rows(of: view, now: clock.currentTime()))
    }

    /// The views clients opened with definitions of their own: what a list
    /// reloaded whole opens again for them.
    public var ownViewDefinitions: [ViewID: ViewDefinition] {
        views.filter { if case .own = $0.key { true } else { false } }.mapValues(\.definition)
    }

    /// The named views, by name, with each one's definition and counts.
    public var namedViews: [NamedView] {
        views.compactMap { id, view -> NamedView? in
            guard case .shared(let name) = id else { return nil }
            return NamedView(name: name, definition: view.definition, properties: properties(of: view))
        }.sorted { $0.name < $1.name }
    }

    /// Changes what a view shows (nil: keep that part). A named view's
    /// definition is stored (it survives restarts) and every client on it
    /// sees the change. Nil when nothing changes.
    public func setOptions(
        of id: ViewID, filter: ListFilter? = nil, query: Query? = nil, sort: ListSort? = nil,
        grouping: ListGrouping?? = nil
    ) throws(TodoError) -> ListChangeOutcome? {
        guard let view = views[id] else {
            if case .shared(let name) = id { throw .viewNotFound(name) }
            return nil
        }
        if let sort { try checkSort(sort) }
        var definition = view.definition
        if let filter { definition.filter = filter }
        if let query { definition.query = query }
        if let sort { definition.sort = sort }
        if let grouping { definition.grouping = grouping }
        guard definition != view.definition else { return nil }
        return try define(id, as: definition)
    }

    /// Saves a named view: creates it, or replaces what it shows. Every
    /// client watching it is sent the change; nil when it was already so.
    public func saveView(_ name: String, _ definition: ViewDefinition) throws(TodoError) -> ListChangeOutcome? {
        if let problem = ViewName.problem(with: name) { throw .invalidViewName(name, problem) }
        try checkSort(definition.sort)
        if views[.shared(name)] == nil, savedViewSettings.count >= Self.maximumNamedViews, name != "main" {
            throw .tooManyViews(maximum: Self.maximumNamedViews)
        }
        if let existing = views[.shared(name)], existing.definition == definition, savedViewSettings[name] != nil { return nil }
        return try define(.shared(name), as: definition)
    }

    /// Deletes a named view (not `main`). Its subscribers are the caller's
    /// to end: the outcome has no change sets.
    public func removeView(_ name: String) throws(TodoError) -> ListChangeOutcome {
        guard name != "main" else { throw .mainViewIsPermanent }
        guard let view = views[.shared(name)] else { throw .viewNotFound(name) }
        var applied = AppliedChange(nextIDBefore: collection.nextID)
        applied.viewDefinitionBefore = (.shared(name), view.definition)
        applied.savedSettingsBefore = (name, savedViewSettings[name])
        views[.shared(name)] = nil
        savedViewSettings[name] = nil
        return ListChangeOutcome(changes: [:], write: ListWrite(removedViews: [name]), applied: applied)
    }

    /// Gives a view (new or existing) a definition; stores a named view's.
    func define(_ id: ViewID, as definition: ViewDefinition) throws(TodoError) -> ListChangeOutcome {
        let viewClock = judgingClock
        let compiled = try compile(definition.query, at: viewClock)
        prepareKeys(for: definition)
        var write: ListWrite?
        var applied = AppliedChange(nextIDBefore: collection.nextID)
        applied.viewDefinitionBefore = (id, views[id]?.definition)
        if case .shared(let name) = id {
            write = ListWrite(viewSettings: [name: definition.settings])
            applied.savedSettingsBefore = (name, savedViewSettings[name])
            savedViewSettings[name] = definition.settings
        }
        let before = views[id].map(properties(of:))
        if views[id] == nil {
            views[id] = ListView(definition: definition, compiled: compiled, items: collection, keys: keys, clock: viewClock)
        } else {
            views[id]!.redefine(definition, compiled: compiled, items: collection, keys: keys, clock: viewClock)
        }
        let after = properties(of: views[id]!)
        let change = TodoListChange(
            properties: after, changedKeys: before.map { after.changedKeys(since: $0) } ?? [],
            rowOperations: [.reset(rows: rows(of: views[id]!, now: clock.currentTime()))])
        return ListChangeOutcome(changes: before == nil ? [:] : [id: change], write: write, applied: applied)
    }

    // MARK: Commands

    /// Carries out a command: validates it, applies it to memory and returns
    /// what to store and what each view shows. A refused command changes nothing.
    public func perform(_ command: TodoCommand) throws(TodoError) -> CommandOutcome {
        let now = clock.currentTime()
        let (planned, subject) = try plan(command, at: now)
        guard var (step, historyChange) = planned else {
            return CommandOutcome(row: subject.flatMap { collection[$0] }.map { row($0, now: now) }, description: nil, changes: [:])
        }
        if case .record = historyChange {
            step = stampedWithOrigin(step)
            historyChange = .record(step)
        }
        lastPlainRow = nil
        let (changes, applied) = apply(step, historyChange, at: now)
        let description: String
        switch historyChange {
        case .record: description = step.description
        case .undo: description = UndoWording.said(.undid, step, as: worded(step)) { wording.due($0, now: now) }
        case .redo: description = UndoWording.said(.redid, step, as: worded(step)) { wording.due($0, now: now) }
        }
        let subjectRow = subject.flatMap { id in
            if let built = lastPlainRow, built.id == id, built.now == now { return built.row }
            return collection[id].map { row($0, now: now) }
        }
        lastPlainRow = nil
        return CommandOutcome(
            row: subjectRow, description: description,
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
        // Items an earlier command removed with their parent: removing them
        // again is already done (`todoctl rm 3 4`, 4 under 3), not an error.
        var removed: Set<TodoID> = []
        for (index, command) in commands.enumerated() {
            do throws(TodoError) {
                if command == .undo || command == .redo { throw TodoError.undoInTransaction }
                if case .delete(let id) = command, removed.contains(id) {
                    results.append(.init(subject: nil, description: nil))
                    continue
                }
                let (planned, subject) = try plan(command, at: now)
                if let step = planned?.0 {
                    collection.apply(step)
                    steps.append(step)
                    for change in step.changes where change.after == nil { removed.insert(change.id) }
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
        if let merged = UndoStep(merging: steps).map(stampedWithOrigin) {
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
        if let desktopBefore = applied.desktopBefore { desktop = desktopBefore }
        // A tick taken back keeps `lastTick`: the views stay judged at it,
        // and only the reminders it fired are forgotten, to fire again.
        if let (id, definition) = applied.viewDefinitionBefore {
            // A client's own view that has closed meanwhile stays closed.
            let closedOwnView = { if case .own = id { self.views[id] == nil } else { false } }()
            if let definition, !closedOwnView {
                let viewClock = judgingClock
                let compiled = (try? compile(definition.query, at: viewClock)) ?? (try! compile(.all, at: viewClock))
                if views[id] == nil {
                    views[id] = ListView(definition: definition, compiled: compiled, items: collection, keys: keys, clock: viewClock)
                } else {
                    views[id]!.redefine(definition, compiled: compiled, items: collection, keys: keys, clock: viewClock)
                }
            } else if definition == nil {
                views[id] = nil
            }
        }
        if let (name, settings) = applied.savedSettingsBefore { savedViewSettings[name] = settings }
        cachedAlerts = nil
        cachedDesktop = nil
    }

    /// Applies a planned step and its history move; returns each view's change set.
    private func apply(_ step: UndoStep, _ historyChange: ListWrite.HistoryChange, at now: Date)
        -> ([ViewID: TodoListChange], AppliedChange)
    {
        let propertiesBefore = self.propertiesBefore()
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
}
