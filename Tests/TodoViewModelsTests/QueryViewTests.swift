import Foundation
import Testing
import TodoModel
import TodoViewModels
import TodoViewState

/// Views with a query: which rows they show, how an edit moves a row in or
/// out (one row edit, not a reset), waiting items, what a tick changes, and
/// counters that always equal a recount.
@Suite struct QueryViewTests {
    let clock = TestClock()  // Sunday 22 November 2026, 12:00 in Berlin
    let viewModel: TodoListViewModel

    init() {
        viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
    }

    /// Opens own view `id` showing what `query` matches, oldest first.
    private func view(_ query: String, _ id: Int = 1) throws -> ViewID {
        let view = ViewID.own(id)
        try viewModel.openView(view, definition: ViewDefinition(query: try Query.parse(query)))
        return view
    }

    private func expectCountsMatchARecount(_ view: ViewID, _ definition: ViewDefinition, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let recount = try Recount(items: viewModel.snapshot.items, definition: definition, now: clock.now, timeZone: clock.timeZone)
        #expect(Recount(viewModel.state(of: view)!) == recount, sourceLocation: sourceLocation)
    }

    @Test func aViewShowsExactlyTheItemsItsQueryMatches() throws {
        let home = try viewModel.add(shorthand: "mow +home")
        try viewModel.add(shorthand: "report project:work.q4")
        try viewModel.add(shorthand: "gym +health")
        let both = try viewModel.add(shorthand: "call +HOME project:work")
        try viewModel.add(shorthand: "call project:workshop")
        let view = try view("+home or project:work")
        #expect(viewModel.ids(of: view) == [home.rawValue, 2, both.rawValue])
        #expect(viewModel.state(of: view)!.properties.query == "+home or project:work")
        #expect(viewModel.state(of: view)!.properties.totalCount == 3)
    }

    @Test func anEditIntoOrOutOfTheQueryIsOneRowInsertOrRemove() throws {
        let a = try viewModel.add("a")
        let b = try viewModel.add(shorthand: "b +home")
        try viewModel.add("c")
        let view = try view("+home")
        var client = viewModel.state(of: view)!

        let into = try viewModel.perform(.modify(a, "+home"))
        let inserted = try #require(into.changes[view])
        #expect(inserted.rowOperations == [.insert(index: 0, row: try #require(into.row))])
        client.apply(inserted)
        #expect(client == viewModel.state(of: view))
        #expect(viewModel.ids(of: view) == [a.rawValue, b.rawValue])

        let out = try viewModel.perform(.modify(b, "-home"))
        let removed = try #require(out.changes[view])
        #expect(removed.rowOperations == [.remove(index: 1)])
        #expect(removed.changedKeys.contains("totalCount"))
        client.apply(removed)
        #expect(client == viewModel.state(of: view))

        // An edit the query does not see is nothing to this view.
        let unrelated = try viewModel.perform(.modify(b, "pri:H"))
        #expect(unrelated.changes[view] == nil)
        #expect(unrelated.changes[.main] != nil)
    }

    @Test func waitingItemsShowOnlyWhereTheQueryNamesAStatus() throws {
        try viewModel.add("visible")
        let waiting = try viewModel.add(shorthand: "later wait:mon +home")
        let waitingView = try view("status:waiting", 1)
        let homeView = try view("+home", 2)
        let pendingView = try view("status:pending", 3)
        let anyView = try view("status:all", 4)
        #expect(viewModel.ids(of: .main) == [1])
        #expect(viewModel.ids(of: homeView) == [])
        #expect(viewModel.ids(of: waitingView) == [waiting.rawValue])
        #expect(viewModel.ids(of: pendingView) == [1])
        #expect(viewModel.ids(of: anyView) == [1, waiting.rawValue])
        // Hidden items are not counted either.
        #expect(viewModel.main.properties.activeCount == 1)
        #expect(viewModel.main.properties.tagCounts == [])
        #expect(viewModel.state(of: waitingView)!.properties.tagCounts == [NameCount(name: "home", count: 1)])
    }

    /// A wait moment ends within the day: the tick that follows inserts the
    /// row where it now shows and counts it, one row edit per view.
    @Test func aTickAtTheEndOfAWaitMomentInsertsTheRow() throws {
        try viewModel.add("first")
        let later = try viewModel.add(shorthand: "later wait:\"today 15:00\" +home")
        let waitingView = try view("status:waiting")
        var main = viewModel.main
        var waiting = viewModel.state(of: waitingView)!
        #expect(viewModel.nextEvent == wallClock(2026, 11, 22, 15))

        clock.set(to: wallClock(2026, 11, 22, 15))
        let tick = viewModel.tick()
        let row = try #require(viewModel.main.rows.last)
        #expect(row.id == later.rawValue && row.waitText == nil)
        #expect(tick.changes[.main]?.rowOperations == [.insert(index: 1, row: row)])
        #expect(tick.changes[waitingView]?.rowOperations == [.remove(index: 0)])
        main.apply(try #require(tick.changes[.main]))
        waiting.apply(try #require(tick.changes[waitingView]))
        #expect(main == viewModel.main)
        #expect(waiting == viewModel.state(of: waitingView))
        #expect(viewModel.main.properties.activeCount == 2)
        #expect(viewModel.main.properties.tagCounts == [NameCount(name: "home", count: 1)])
        try expectCountsMatchARecount(.main, ViewDefinition())
    }

    /// A wait day ends at midnight, when every view is rebuilt for the new day.
    @Test func aWaitDayEndsAtMidnight() throws {
        let later = try viewModel.add(shorthand: "later wait:mon")
        #expect(viewModel.nextEvent == wallClock(2026, 11, 23, 0))
        clock.set(to: wallClock(2026, 11, 23, 0))
        var main = viewModel.main
        let tick = viewModel.tick()
        main.apply(try #require(tick.changes[.main]))
        #expect(main == viewModel.main)
        #expect(viewModel.ids(of: .main) == [later.rawValue])
        #expect(viewModel.main.properties.itemsLeft == "1 item left")
    }

    @Test func anOverdueViewGainsAnItemWhenItsDueMomentPasses() throws {
        try viewModel.add(shorthand: "late already due:yesterday")
        let soon = try viewModel.add(shorthand: "soon due:\"today 12:30\"")
        try viewModel.add(shorthand: "later due:\"today 18:00\"")
        let overdue = try view("overdue")
        var client = viewModel.state(of: overdue)!
        #expect(viewModel.ids(of: overdue) == [1])
        #expect(viewModel.main.properties.overdueCount == 1)
        #expect(viewModel.main.properties.dueTodayCount == 2)

        clock.set(to: wallClock(2026, 11, 22, 12, 30))
        let tick = viewModel.tick()
        let change = try #require(tick.changes[overdue])
        #expect(change.rowOperations.count == 1)
        guard case .insert(1, let row)? = change.rowOperations.first else {
            Issue.record("expected one insert, got \(change.rowOperations)")
            return
        }
        #expect(row.id == soon.rawValue && row.overdue)
        client.apply(change)
        #expect(client == viewModel.state(of: overdue))
        #expect(viewModel.main.properties.overdueCount == 2)
        #expect(viewModel.main.properties.overdueText == "2 overdue")
        // The main view's row is updated in place, not moved.
        #expect(tick.changes[.main]?.rowOperations == [.update(index: 1, row: row)])
        try expectCountsMatchARecount(overdue, ViewDefinition(query: .overdue))
        try expectCountsMatchARecount(.main, ViewDefinition())
    }

    /// Ticks come at events (reminders, due and wait moments, midnight);
    /// one may change no item's state. Items typed in after it must still
    /// be judged at its moment: a wait already over does not hide an item,
    /// a due moment already past makes it overdue.
    @Test func itemsAddedAfterAQuietTickAreJudgedAtIt() throws {
        let old = try viewModel.add("old")
        let overdue = try view("overdue")
        clock.set(to: wallClock(2026, 11, 23, 11))
        _ = viewModel.tick()  // a new day: every view is rebuilt
        clock.set(to: wallClock(2026, 11, 23, 17))
        let quiet = viewModel.tick()  // the "waited a day" reminder of “old”, nothing else
        #expect(quiet.write?.firedReminders == [ReminderKey(itemID: old, condition: .waiting)])

        let over = try viewModel.add(shorthand: "wait over wait:\"today 16:30\"")
        let past = try viewModel.add(shorthand: "due before due:\"today 16:30\"")
        #expect(viewModel.ids(of: .main) == [old.rawValue, over.rawValue, past.rawValue])
        #expect(viewModel.ids(of: overdue) == [past.rawValue])
        try expectCountsMatchARecount(.main, ViewDefinition())
        try expectCountsMatchARecount(overdue, ViewDefinition(query: .overdue))
    }

    @Test func countersMatchARecountFromScratch() throws {
        let texts = [
            "a +home +Garden project:home.garden due:today", "b +home project:work due:yesterday pri:H",
            "c +HOME project:work due:\"today 08:00\"", "d project:Work due:tomorrow", "e +errands wait:fri",
            "f due:2026-11-01", "g +home",
        ]
        for text in texts { try viewModel.add(shorthand: text) }
        _ = try viewModel.perform(.setDone(TodoID(7), true))
        let definitions = [
            ViewDefinition(), ViewDefinition(filter: .active, query: try Query.parse("+home")),
            ViewDefinition(filter: .completed, query: try Query.parse("+home or project:work")),
            ViewDefinition(query: try Query.parse("status:waiting or overdue")),
        ]
        for (index, definition) in definitions.enumerated() {
            try viewModel.openView(.own(index), definition: definition)
            try expectCountsMatchARecount(.own(index), definition)
        }
        let main = viewModel.main.properties
        #expect(main.activeCount == 5)
        #expect(main.itemsLeft == "5 items left")
        #expect(main.completedCount == 1)
        #expect(main.overdueCount == 3)
        #expect(main.dueTodayCount == 2)
        #expect(main.dueTodayText == "2 due today")
        #expect(main.tagCounts == [NameCount(name: "garden", count: 1), NameCount(name: "home", count: 3)])
        #expect(main.projectCounts == [
            NameCount(name: "Work", count: 1), NameCount(name: "home.garden", count: 1), NameCount(name: "work", count: 2),
        ])
        let home = viewModel.state(of: .own(1))!.properties
        #expect(home.itemsLeft == "3 items left")
        #expect(home.completedCount == 1)
    }

    @Test func groupingByProjectOrdersByProjectWithNoneLast() throws {
        for text in ["a", "b project:work", "c project:home.garden", "d project:home", "e", "f project:work"] {
            try viewModel.add(shorthand: text)
        }
        try viewModel.openView(.own(1), definition: ViewDefinition(sort: .created, grouping: .project))
        let rows = viewModel.state(of: .own(1))!.rows
        #expect(rows.map(\.title) == ["d", "c", "b", "f", "a", "e"])
        #expect(rows.map(\.group) == ["home", "home.garden", "work", "work", "(no project)", "(no project)"])
        #expect(viewModel.main.rows.allSatisfy { $0.group == nil })
        #expect(viewModel.state(of: .own(1))!.properties.grouping == .project)
    }

    /// Projects differing only in case sort together, so each group's rows
    /// must still be together: a client draws a header wherever a row's
    /// group differs from the row above.
    @Test func groupsStayTogetherWhenProjectsDifferOnlyInCase() throws {
        for text in ["a project:Home", "b project:home", "c project:Home", "d project:home"] {
            try viewModel.add(shorthand: text)
        }
        try viewModel.openView(.own(1), definition: ViewDefinition(sort: .created, grouping: .project))
        let rows = viewModel.state(of: .own(1))!.rows
        let groups = rows.map { $0.group ?? "" }
        let headers = zip(groups, [""] + groups).filter { $0 != $1 }.count
        #expect(headers == 2, "rows by group: \(groups)")
        #expect(rows.map(\.title) == ["a", "c", "b", "d"])
    }

    @Test func anEditThatChangesTheProjectMovesTheRowToItsGroup() throws {
        let a = try viewModel.add(shorthand: "a project:home")
        try viewModel.add(shorthand: "b project:work")
        try viewModel.openView(.own(1), definition: ViewDefinition(grouping: .project))
        var client = viewModel.state(of: .own(1))!
        let outcome = try viewModel.perform(.modify(a, "project:zoo"))
        let change = try #require(outcome.changes[.own(1)])
        guard case .move(0, 1, let row)? = change.rowOperations.first, change.rowOperations.count == 1 else {
            Issue.record("expected one move, got \(change.rowOperations)")
            return
        }
        #expect(row.group == "zoo")
        client.apply(change)
        #expect(client == viewModel.state(of: .own(1)))
    }
}
