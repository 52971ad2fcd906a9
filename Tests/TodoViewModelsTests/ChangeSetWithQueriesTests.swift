import Foundation
import TestSupport
import Testing
import TodoModel
@testable import TodoViewModels
import TodoViewState

/// The seeded, model-based change-set test, with everything views and items
/// gained in 20a5439: random shorthand adds and modifies (tags, projects,
/// priorities, due and wait dates, repetitions), notes, completions of
/// recurring items, undo and redo, transactions, views with random queries,
/// multi-key sorts and grouping (own and named, redefined as it runs), and
/// time: the clock moves past due and wait moments and across midnight,
/// sometimes with a command or a view change before the tick that follows.
///
/// After every step, for every view: its previous state plus its change set
/// equals its fresh state; its counters and rows equal a recount from the
/// items (`Recount`); its rows are in the order the sort says
/// (`ExpectedOrder`); and the writes, folded in order, equal memory. Now
/// and then, a view model started from those writes must show the same.
/// And whenever the clock moves, a timer set as the daemon sets it (from
/// each tick's and each command's `nextEvent`) must have fired by the
/// first moment an item changed state. Every reply's row must be the row
/// built afresh for its item (placing may hand the reply the row it built).
@Suite struct ChangeSetWithQueriesTests {
    @Test(arguments: [101, 102, 103, 104, 105] as [UInt64])
    func changeSetsCountersAndOrderStayTrue(seed: UInt64) throws {
        var session = try RandomSession(seed: seed)
        for step in 0..<300 {
            try session.step()
            var problems = try session.problems()
            if step % 30 == 29 { problems += try session.restartProblems() }
            guard problems.isEmpty else {
                Issue.record("seed \(seed), step \(step): \(problems.prefix(4).joined(separator: "\n"))\nlast steps:\n\(session.log.suffix(6).joined(separator: "\n"))")
                return
            }
        }
        // The run did what it is for: ticks within days and across
        // midnights, recurring items completed, views redefined, and
        // commands on items whose state the next tick was about to change.
        #expect(session.stats.ticks > 20)
        #expect(session.stats.midnights >= 2)
        #expect(session.stats.occurrences > 0)
        #expect(session.stats.viewChanges > 10)
        #expect(session.stats.commandsOnTurningItems > 3)
        #expect(session.stats.waiting > 0)
    }
}

/// One random run: the view model, the views it is watched through, and
/// what a store and each client would hold.
private struct RandomSession {
    var inputs: RandomListInputs
    let clock = TestClock()
    let viewModel: TodoListViewModel
    /// The definition of every open view, as the test set it.
    var definitions: [ViewID: ViewDefinition] = [.main: ViewDefinition()]
    /// Each view as a client holds it: its first state plus every change set.
    var clients: [ViewID: TodoListState] = [:]
    /// What a store would hold: every write folded in, in order.
    var stored: ListSnapshot
    var log: [String] = []
    /// Change sets sent to views the test does not follow (closed or never opened).
    var strayChanges: [String] = []
    /// When the daemon's timer would fire: the earliest `nextEvent` the
    /// last tick and every command since asked for (it keeps the earliest).
    var timer: Date?
    var lastTick: Date
    /// Moments at which an item changed state with no tick asked for by then.
    var missedEvents: [String] = []
    /// Replies whose row is not the item's row built afresh.
    var wrongReplyRows: [String] = []
    var stats = (ticks: 0, midnights: 0, occurrences: 0, viewChanges: 0, commandsOnTurningItems: 0, waiting: 0)
    private var nextOwnView = 1

    init(seed: UInt64) throws {
        inputs = RandomListInputs(seed: seed)
        viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock, fields: RandomListInputs.fields)
        stored = viewModel.snapshot
        lastTick = clock.now
        timer = viewModel.nextEvent
        clients[.main] = viewModel.main
        for _ in 0..<4 { try openOwnView() }
        for name in ["work", "later"] { try saveView(name) }
    }

    /// The open views in a fixed order, so that a seed picks the same ones
    /// in every run (a dictionary's order changes from run to run).
    private var openViews: [ViewID] { definitions.keys.sorted { "\($0)" < "\($1)" } }

    // MARK: Steps

    mutating func step() throws {
        switch inputs.int(0...99) {
        case 0..<50: perform(randomCommand())
        case 50..<57: performTransaction()
        case 57..<80: try passTime()
        case 80..<90: try changeAView()
        default: try performAndTakeBack()
        }
    }

    private mutating func perform(_ command: TodoCommand) {
        let itemsBefore = viewModel.snapshot.items.count
        guard let outcome = try? viewModel.perform(command) else {
            log.append("refused \(command)")
            return
        }
        log.append("\(command): \(outcome.description ?? "nothing")")
        if let row = outcome.row, let item = viewModel.collection[TodoID(row.id)],
            row != viewModel.row(item, now: clock.now)
        {
            wrongReplyRows.append("the reply to \(command) shows a row other than its item's")
        }
        if case .setDone(_, true) = command, viewModel.snapshot.items.count > itemsBefore { stats.occurrences += 1 }
        if outcome.write?.changes.contains(where: { $0.after?.wait != nil }) == true { stats.waiting += 1 }
        askForATick(at: outcome.nextEvent)
        record(outcome.changes, outcome.write)
    }

    private mutating func performTransaction() {
        let commands = (0..<inputs.int(2...3)).map { _ in randomCommand() }.filter { $0 != .undo && $0 != .redo }
        guard let outcome = try? viewModel.perform(transaction: commands) else {
            log.append("refused transaction \(commands)")
            return
        }
        log.append("transaction \(commands): \(outcome.description ?? "nothing")")
        askForATick(at: outcome.nextEvent)
        record(outcome.changes, outcome.write)
    }

    /// Moves the clock (just past the next event, as the daemon's timer
    /// does, or by minutes, hours, past midnight), sometimes does something
    /// before the tick that follows, then ticks.
    private mutating func passTime() throws {
        let start = clock.now
        if inputs.chance(0.5), let event = viewModel.nextEvent, event > start {
            clock.set(to: event.addingTimeInterval(Double(inputs.int(0...120))))
        } else {
            clock.advance(by: Double(inputs.pick([1, 5, 20, 45, 90, 240, 720]) * 60 + inputs.int(0...59)))
        }
        log.append("clock to \(clock.now)")
        if CalendarDay(clock.now, in: clock.timeZone) != CalendarDay(start, in: clock.timeZone) { stats.midnights += 1 }
        checkTheTimerWouldHaveFired()
        // Items whose state the coming tick will change: commands on them
        // before it are the ones that could be counted twice or not at all.
        let timeZone = clock.timeZone
        let turning = viewModel.snapshot.items.filter {
            $0.isOverdue(at: start, in: timeZone) != $0.isOverdue(at: clock.now, in: timeZone)
                || $0.isWaiting(at: start, in: timeZone) != $0.isWaiting(at: clock.now, in: timeZone)
        }.map(\.id)
        switch inputs.int(0...5) {
        case 0...2 where !turning.isEmpty:
            let id = inputs.pick(turning)
            stats.commandsOnTurningItems += 1
            perform(inputs.pick([.setDone(id, true), .modify(id, inputs.modifyShorthand()), .delete(id), .setDueText(id, "tomorrow")]))
        case 0...2: perform(randomCommand())
        case 3: try changeAView()
        default: break
        }
        let tick = viewModel.tick()
        lastTick = clock.now
        timer = tick.nextEvent
        stats.ticks += 1
        log.append("tick: \(tick.changes.count) views changed, fired \(tick.write?.firedReminders.count ?? 0)")
        record(tick.changes, tick.write)
    }

    /// Opens, redefines, saves, removes or closes a view.
    private mutating func changeAView() throws {
        stats.viewChanges += 1
        let named = openViews.compactMap { id -> String? in
            if case .shared(let name) = id, name != "main" { return name }
            return nil
        }
        let own = openViews.filter { if case .own = $0 { true } else { false } }
        switch inputs.int(0...5) {
        case 0: try openOwnView()
        case 1:
            guard let id = inputs.pick(anyOf: own) else { return try openOwnView() }
            viewModel.closeView(id)
            definitions[id] = nil
            clients[id] = nil
            log.append("closed \(id)")
        case 2: try saveView(inputs.pick(["work", "later", "home"]))
        case 3:
            guard let name = inputs.pick(anyOf: named) else { return try saveView("home") }
            let outcome = try viewModel.removeView(name)
            definitions[.shared(name)] = nil
            clients[.shared(name)] = nil
            log.append("removed view \(name)")
            record(outcome.changes, outcome.write)
        default:
            let id = inputs.pick(openViews)
            let new = try inputs.definition()
            let outcome = try viewModel.setOptions(
                of: id, filter: new.filter, query: new.query, sort: new.sort, grouping: .some(new.grouping))
            definitions[id] = new
            log.append("options of \(id): \(new.filter) \"\(new.query)\" \(new.sort) \(String(describing: new.grouping))")
            record(outcome?.changes ?? [:], outcome?.write)
        }
    }

    private mutating func openOwnView() throws {
        let id = ViewID.own(nextOwnView)
        nextOwnView += 1
        let definition = try inputs.definition()
        clients[id] = try viewModel.openView(id, definition: definition)
        definitions[id] = definition
        log.append("opened \(id): \(definition.filter) \"\(definition.query)\" \(definition.sort) \(String(describing: definition.grouping))")
    }

    private mutating func saveView(_ name: String) throws {
        let id = ViewID.shared(name)
        let definition = try inputs.definition()
        let outcome = try viewModel.saveView(name, definition)
        log.append("saved \(name): \(definition.filter) \"\(definition.query)\" \(definition.sort) \(String(describing: definition.grouping))")
        if clients[id] == nil {
            record([:], outcome?.write)
            clients[id] = try viewModel.openView(id)
        } else {
            record(outcome?.changes ?? [:], outcome?.write)
        }
        definitions[id] = definition
    }

    /// A command or view change whose write fails: it is reverted, memory
    /// must equal the store again, and each client starts over from the
    /// view's state (as the daemon resends it).
    private mutating func performAndTakeBack() throws {
        let applied: AppliedChange?
        if inputs.chance(0.7) {
            let command = randomCommand()
            let outcome = try? viewModel.perform(command)
            askForATick(at: outcome?.nextEvent)
            applied = outcome?.applied
            log.append("\(command), reverted")
        } else if inputs.chance(0.5) {
            clock.advance(by: Double(inputs.pick([10, 100, 1000]) * 60))
            checkTheTimerWouldHaveFired()
            let tick = viewModel.tick()
            lastTick = clock.now
            timer = tick.nextEvent
            applied = tick.applied
            log.append("tick at \(clock.now), reverted")
        } else {
            let id = inputs.pick(openViews)
            applied = try viewModel.setOptions(of: id, query: try Query.parse(inputs.query(), fields: RandomListInputs.fields))?.applied
            log.append("options of \(id), reverted")
        }
        if let applied { viewModel.revert(applied) } else { log.append("(nothing to revert)") }
        for id in openViews { clients[id] = viewModel.state(of: id) }
    }

    /// As the daemon's `scheduleTick(at:)`: an earlier deadline wins.
    private mutating func askForATick(at event: Date?) {
        guard let event else { return }
        if timer.map({ event < $0 }) ?? true { timer = event }
    }

    /// The clock has just moved: if an item turned overdue, stopped waiting
    /// or reached its scheduled moment after the last tick and by now, the timer must have been
    /// set for that moment or earlier, or the daemon would have shown the
    /// item as it was for longer than it takes to tick.
    private mutating func checkTheTimerWouldHaveFired() {
        let timeZone = clock.timeZone
        let changes = viewModel.snapshot.items.filter { !$0.isDone }.flatMap { item in
            var scheduled: Date?
            if case .date(let date)? = item.values["scheduled"] { scheduled = date.sortInstant(in: timeZone) }
            return [item.due?.overdueFrom(in: timeZone), item.wait?.sortInstant(in: timeZone), scheduled].compactMap { $0 }
                .map { (item.id, $0) }
        }.filter { $0.1 > lastTick && $0.1 <= clock.now }
        guard let (id, first) = changes.min(by: { $0.1 < $1.1 }) else { return }
        if timer.map({ $0 > first }) ?? true {
            missedEvents.append("item \(id) changed state at \(first); the timer was set for \(String(describing: timer))")
        }
    }

    private mutating func record(_ changes: [ViewID: TodoListChange], _ write: ListWrite?) {
        for (id, change) in changes {
            // A view the test does not follow must not be told anything.
            guard clients[id] != nil else {
                strayChanges.append("a change set for \(id), which is not open")
                continue
            }
            clients[id]!.apply(change)
        }
        if let write { stored.apply(write) }
    }

    private mutating func randomCommand() -> TodoCommand {
        let ids = viewModel.snapshot.items.map(\.id)
        let id = inputs.chance(0.03) || ids.isEmpty ? TodoID(999) : inputs.pick(ids)
        switch inputs.int(0...23) {
        case 0...5: return .addText(inputs.addShorthand(), due: inputs.chance(0.1) ? inputs.pick(RandomListInputs.dates) : nil)
        case 6...9: return .modify(id, inputs.modifyShorthand())
        case 10: return .addNote(id, inputs.pick(["bring the receipt", "  ask Anna  ", "second line\nrefused"]))
        case 11: return .removeNote(id, number: inputs.int(1...3))
        case 12...14: return .setDone(id, inputs.chance(0.8))
        case 15: return .setDueText(id, inputs.chance(0.2) ? nil : inputs.pick(RandomListInputs.dates))
        case 16: return .edit(id, title: inputs.pick(RandomListInputs.titleWords))
        case 17: return .delete(id)
        case 18: return inputs.chance(0.3) ? .toggleAll : .clearCompleted
        case 19, 20: return .undo
        default: return .redo
        }
    }

    // MARK: Checks

    /// What differs after a restart from what the writes stored: every
    /// named view must come back as it is, and an own view opened again
    /// with its definition must show what the one kept up to date shows.
    func restartProblems() throws -> [String] {
        let restarted = TodoListViewModel(snapshot: stored, clock: clock.todoClock, fields: RandomListInputs.fields)
        var problems: [String] = []
        if restarted.namedViews != viewModel.namedViews { problems.append("restarted: the named views differ") }
        for id in openViews {
            if case .own = id { try restarted.openView(id, definition: definitions[id]!) }
            if restarted.state(of: id) != viewModel.state(of: id) { problems.append("restarted: \(id) differs") }
        }
        return problems
    }

    /// What is wrong now, if anything: memory against the writes, and each
    /// view against its client, a recount and the expected order.
    func problems() throws -> [String] {
        var problems = strayChanges + missedEvents + wrongReplyRows
        let snapshot = viewModel.snapshot
        if snapshot != stored { problems.append("the writes folded in do not equal memory") }
        let items = Dictionary(uniqueKeysWithValues: snapshot.items.map { ($0.id.rawValue, $0) })
        let today = CalendarDay.dayNumber(of: clock.now, in: clock.timeZone)
        for id in openViews {
            let definition = definitions[id]!
            guard let fresh = viewModel.state(of: id) else {
                problems.append("\(id) is not open")
                continue
            }
            if clients[id] != fresh { problems.append("\(id): previous state + change sets ≠ fresh state") }
            let recount = try Recount(items: snapshot.items, definition: definition, now: clock.now, timeZone: clock.timeZone)
            if Recount(fresh) != recount { problems.append("\(id) \"\(definition.query)\": counted \(Recount(fresh))\nrecount \(recount)") }
            let order = ExpectedOrder(definition: definition, timeZone: clock.timeZone, today: today)
            for (a, b) in zip(fresh.rows, fresh.rows.dropFirst()) {
                guard let left = items[a.id], let right = items[b.id] else { continue }
                if !order.precedes(left, right) {
                    problems.append("\(id) sorted \(definition.sort) grouped \(String(describing: definition.grouping)): \(a.id) “\(a.title)” before \(b.id) “\(b.title)”")
                    break
                }
            }
            if fresh.properties.query != definition.query.description { problems.append("\(id) shows query \(fresh.properties.query)") }
        }
        return problems
    }
}
