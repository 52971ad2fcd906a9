import Foundation
import TestSupport
import Testing
import TodoModel
import TodoViewModels
import TodoViewState

/// Change sets are what clients apply: applying them must always give the
/// freshly computed state, and their size must not grow with the list.
@Suite struct ChangeSetTests {
    /// Random commands on several views at once; after every command, each
    /// view's previous state plus its change set must equal its new state.
    @Test(arguments: [1, 2, 3, 4, 5])
    func appliedChangeSetsEqualFreshState(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let clock = TestClock()
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
        let views: [ViewID] = [.main, .own(1), .own(2), .own(3), .own(4)]
        try viewModel.openView(.own(1), definition: ViewDefinition(filter: .active, sort: .title))
        try viewModel.openView(.own(2), definition: ViewDefinition(filter: .completed, sort: .due))
        try viewModel.openView(.own(3), definition: ViewDefinition(filter: .all, sort: .due))
        try viewModel.openView(.own(4), definition: ViewDefinition(filter: .active, sort: .created))
        var clientStates = Dictionary(uniqueKeysWithValues: views.map { ($0, viewModel.state(of: $0)!) })
        // What a store would hold: every write folded in, in order.
        var stored = viewModel.snapshot
        let titles = ["milk", "Milk", "éclair", "eclair", "bread", "zebra", "apple", "Äpfel"]

        for _ in 0..<400 {
            let ids = viewModel.main.rows.map { TodoID($0.id) }
            let someID = ids.randomElement(using: &random) ?? TodoID(1)
            let due: DueDate? = [nil, .day(CalendarDay(year: 2026, month: 11, day: Int.random(in: 20...28, using: &random))),
                                 .moment(TestClock.noon.addingTimeInterval(Double(Int.random(in: -5...5, using: &random)) * 36_000))]
                .randomElement(using: &random)!
            let command: TodoCommand =
                switch Int.random(in: 0..<12, using: &random) {
                case 0, 1, 2: .add(title: titles.randomElement(using: &random)!, due: due)
                case 3: .edit(someID, title: titles.randomElement(using: &random)!)
                case 4, 5: .setDone(someID, Bool.random(using: &random))
                case 6: .setDue(someID, due)
                case 7: .delete(someID)
                case 8: .toggleAll
                case 9: .clearCompleted
                case 10: .undo
                default: .redo
                }
            guard let outcome = try? viewModel.perform(command) else {
                #expect(viewModel.snapshot == stored, "a refused \(command) changed memory")
                continue
            }
            if let write = outcome.write { stored.apply(write) }
            #expect(viewModel.snapshot == stored, "the write of \(command) does not describe its change")
            for view in views {
                if let change = outcome.changes[view] { clientStates[view]!.apply(change) }
                #expect(clientStates[view] == viewModel.state(of: view), "view \(view) after \(command)")
            }
        }
    }

    /// The same for reminders and the desktop: commands mixed with clock
    /// ticks (reminders fire, snoozes end, quiet hours begin and end),
    /// snoozes, dismissals and new desktop settings. After each, every view
    /// plus its change set equals its fresh state, and the writes describe
    /// memory.
    @Test(arguments: [1, 2, 3])
    func desktopChangeSetsEqualFreshState(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let clock = TestClock()
        let viewModel = TodoListViewModel(
            snapshot: ListSnapshot(), clock: clock.todoClock, reminderAge: 3 * 3600,
            desktop: DesktopReminderSettings(quietHours: QuietHours(text: "22:00-07:00")), dueSoonLead: 1800)
        let views: [ViewID] = [.main, .own(1)]
        try viewModel.openView(.own(1), definition: ViewDefinition(filter: .active, sort: .due))
        var clientStates = Dictionary(uniqueKeysWithValues: views.map { ($0, viewModel.state(of: $0)!) })
        var stored = viewModel.snapshot
        let conditions = ReminderAlert.Condition.allCases

        for step in 0..<300 {
            let ids = viewModel.main.rows.map { TodoID($0.id) }
            let someID = ids.randomElement(using: &random) ?? TodoID(1)
            let condition = conditions.randomElement(using: &random)!
            let due: DueDate = .moment(clock.now.addingTimeInterval(Double(Int.random(in: -2...8, using: &random)) * 1800))
            let what: String
            let changes: [ViewID: TodoListChange]
            let write: ListWrite?
            do {
                switch Int.random(in: 0..<10, using: &random) {
                case 0, 1:
                    what = "add"
                    let outcome = try viewModel.perform(.add(title: "item \(step)", due: due))
                    (changes, write) = (outcome.changes, outcome.write)
                case 2:
                    what = "done \(someID)"
                    let outcome = try viewModel.perform(.setDone(someID, Bool.random(using: &random)))
                    (changes, write) = (outcome.changes, outcome.write)
                case 3, 4, 5:
                    what = "tick"
                    clock.advance(by: Double(Int.random(in: 1...90, using: &random)) * 60)
                    let outcome = viewModel.tick()
                    (changes, write) = (outcome.changes, outcome.write)
                case 6:
                    what = "snooze \(someID) \(condition)"
                    let outcome = try viewModel.snoozeReminder(someID, condition, for: Double(Int.random(in: 1...120, using: &random)) * 60)
                    (changes, write) = (outcome.changes, outcome.write)
                case 7:
                    what = "dismiss \(someID) \(condition)"
                    let outcome = try viewModel.dismissReminder(someID, condition)
                    (changes, write) = (outcome.changes, outcome.write)
                case 8:
                    what = "settings"
                    let quiet = [nil, QuietHours(text: "22:00-07:00"), QuietHours(text: "12:00-14:00")].randomElement(using: &random)!
                    let outcome = viewModel.changeDesktopSettings(
                        DesktopReminderSettings(enabled: Int.random(in: 0..<4, using: &random) > 0, quietHours: quiet),
                        dueSoonLead: Double(Int.random(in: 0...3, using: &random)) * 900)
                    (changes, write) = (outcome.changes, outcome.write)
                default:
                    what = "undo"
                    let outcome = try viewModel.perform(.undo)
                    (changes, write) = (outcome.changes, outcome.write)
                }
            } catch {
                #expect(viewModel.snapshot == stored, "a refused step changed memory")
                continue
            }
            if let write { stored.apply(write) }
            #expect(viewModel.snapshot == stored, "the write of \(what) does not describe its change")
            for view in views {
                if let change = changes[view] { clientStates[view]!.apply(change) }
                #expect(clientStates[view] == viewModel.state(of: view), "view \(view) after \(what)")
            }
        }
        #expect(stored.desktopReminders.isEmpty == false)  // the run did snooze and dismiss
    }

    /// The same with the fields people organise by: views with queries,
    /// sorts on every key (some reversed), grouped by project; commands that
    /// set tags, projects, priorities and dates. Now and then each view is
    /// also opened afresh (sorted from scratch): it must show the rows the
    /// view kept up to date edit by edit shows.
    @Test(arguments: [11, 12, 13])
    func queryViewsKeptUpToDateEqualFreshOnes(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let clock = TestClock()
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
        let definitions: [ViewID: ViewDefinition] = [
            .own(1): ViewDefinition(filter: .active, query: try Query.parse("+work"), sort: try ListSort(parsing: "priority,due-")),
            .own(2): ViewDefinition(query: try Query.parse("project:home or +shop"), sort: .urgency, grouping: .project),
            .own(3): ViewDefinition(filter: .active, sort: try ListSort(parsing: "project-,title-")),
            .own(4): ViewDefinition(sort: try ListSort(parsing: "title,created-"), grouping: .project),
            .own(5): ViewDefinition(query: try Query.parse("due.before:fri or overdue"), sort: try ListSort(parsing: "due-,modified")),
            .own(6): ViewDefinition(filter: .completed, query: try Query.parse("not +work"), sort: try ListSort(parsing: "modified-")),
        ]
        for (id, definition) in definitions { try viewModel.openView(id, definition: definition) }
        let views = [ViewID.main] + definitions.keys.sorted { "\($0)" < "\($1)" }
        var clientStates = Dictionary(uniqueKeysWithValues: views.map { ($0, viewModel.state(of: $0)!) })
        let titles = ["milk", "Milk", "éclair", "eclair", "item 2", "item 10", "item 010", "Äpfel", "寿司", "report 7", ""]
        let edits = [
            "+work", "-work", "+shop", "+Work", "pri:H", "pri:L", "pri:", "project:home.garden", "project:Home",
            "project:work.q4", "project:", "due:fri", "due:today", "due:2026-11-01", "due:", "+shop pri:M due:mon",
        ]

        for step in 0..<300 {
            let ids = viewModel.main.rows.map { TodoID($0.id) }
            let someID = ids.randomElement(using: &random) ?? TodoID(1)
            let title = titles.randomElement(using: &random)!
            let command: TodoCommand =
                switch Int.random(in: 0..<10, using: &random) {
                case 0, 1: .addText("\(title.isEmpty ? "x" : title) \(edits.randomElement(using: &random)!)")
                case 2, 3, 4: .modify(someID, edits.randomElement(using: &random)!)
                case 5: .edit(someID, title: title.isEmpty ? "y" : title)
                case 6: .setDone(someID, Bool.random(using: &random))
                case 7: .delete(someID)
                case 8: .undo
                default: .redo
                }
            guard let outcome = try? viewModel.perform(command) else { continue }
            for view in views {
                if let change = outcome.changes[view] { clientStates[view]!.apply(change) }
                #expect(clientStates[view] == viewModel.state(of: view), "view \(view) after \(command)")
            }
            if step % 25 == 24 {
                for (id, definition) in definitions {
                    let fresh = try viewModel.openView(.own(100), definition: definition)
                    viewModel.closeView(.own(100))
                    #expect(fresh.rows == viewModel.state(of: id)!.rows, "view \(id) sorted afresh after \(command)")
                }
            }
        }
    }

    @Test func aRetitledRowMovesInATitleSortedView() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let apple = try viewModel.add("apple")
        try viewModel.add("banana")
        try viewModel.add("cherry")
        try viewModel.openView(.own(1), definition: ViewDefinition(sort: .title))
        let outcome = try viewModel.perform(.edit(apple, title: "date"))
        guard case .move(0, 2, let row)? = outcome.changes[.own(1)]?.rowOperations.first else {
            Issue.record("expected a move: \(String(describing: outcome.changes[.own(1)]))")
            return
        }
        #expect(row.title == "date")
        #expect(outcome.changes[.main]?.rowOperations == [.update(index: 0, row: row)])
    }

    @Test func oneEditInALargeListIsOneSmallRowEdit() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        for index in 0..<2_000 { try viewModel.add("item \(index)") }
        try viewModel.openView(.own(1), definition: ViewDefinition(filter: .active, sort: .title))
        let outcome = try viewModel.perform(.setDone(TodoID(1_000), true))
        #expect(outcome.changes[.main]?.rowOperations.count == 1)
        #expect(outcome.changes[.own(1)]?.rowOperations.count == 1)
        let added = try viewModel.perform(.add(title: "new", due: nil))
        #expect(added.changes[.main]?.rowOperations.count == 1)
    }
}
