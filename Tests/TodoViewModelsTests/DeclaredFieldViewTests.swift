import Foundation
import TestSupport
import Testing
import TodoModel
import TodoViewModels
import TodoViewState

/// Views sorted by a declared field and filtered by its query terms: each
/// kind's usual direction with items without a value last, sorts by fields
/// the list does not declare refused when a view is set, stored views
/// read with the list's fields, and `ready` following the clock.
@Suite struct DeclaredFieldViewTests {
    /// Sunday 2026-11-22 12:00 in Berlin: `mon` and `tomorrow` are the 23rd.
    let clock = TestClock()
    static let catalog = try! FieldCatalog(userDefined: [
        FieldDeclaration(name: "estimate", label: "Estimate", kind: .number),
        FieldDeclaration(name: "effort", label: "Effort", kind: .duration),
        FieldDeclaration(name: "owner", label: "Owner", kind: .text),
    ])
    let viewModel: TodoListViewModel

    init() {
        viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock, fields: Self.catalog)
    }

    private func titles(sortedBy text: String, in viewModel: TodoListViewModel? = nil) throws -> [String] {
        let viewModel = viewModel ?? self.viewModel
        let view = ViewID.own(Int.random(in: 1...1_000_000))
        defer { viewModel.closeView(view) }
        return try viewModel.openView(view, definition: ViewDefinition(sort: try ListSort(parsing: text))).rows.map(\.title)
    }

    private func parse(_ query: String) throws -> Query {
        try Query.parse(query, fields: Self.catalog)
    }

    private func expectCountsMatchARecount(
        _ view: ViewID, _ definition: ViewDefinition, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let recount = try Recount(items: viewModel.snapshot.items, definition: definition, now: clock.now, timeZone: clock.timeZone)
        #expect(Recount(viewModel.state(of: view)!) == recount, sourceLocation: sourceLocation)
    }

    // MARK: Sorting

    @Test func numbersAreSmallestFirstAndNoValueLastInBothDirections() throws {
        for text in ["three estimate:3", "ten estimate:10", "none", "minus estimate:-1", "half estimate:2.5", "none too"] {
            try viewModel.add(shorthand: text)
        }
        #expect(try titles(sortedBy: "estimate") == ["minus", "half", "three", "ten", "none", "none too"])
        #expect(try titles(sortedBy: "estimate-") == ["ten", "three", "half", "minus", "none", "none too"])
    }

    @Test func durationsAreShortestFirst() throws {
        for text in ["two hours effort:2h", "none", "half an hour effort:PT30M", "a day effort:1d", "ninety effort:1h30min"] {
            try viewModel.add(shorthand: text)
        }
        #expect(try titles(sortedBy: "effort") == ["half an hour", "ninety", "two hours", "a day", "none"])
        #expect(try titles(sortedBy: "effort-") == ["a day", "two hours", "ninety", "half an hour", "none"])
    }

    @Test func textIsAToZIgnoringCaseAndAccents() throws {
        for text in ["b owner:Bob", "none", "e owner:Émile", "a owner:ann", "c owner:carl"] { try viewModel.add(shorthand: text) }
        #expect(try titles(sortedBy: "owner") == ["a", "b", "c", "e", "none"])
        #expect(try titles(sortedBy: "owner-") == ["e", "c", "b", "a", "none"])
    }

    @Test func datesAreSoonestFirstAsDueDatesAre() throws {
        for text in ["monday sch:mon", "none", "tonight sch:\"today 18:00\"", "friday sch:fri", "monday noon sch:\"mon 12:00\""] {
            try viewModel.add(shorthand: text)
        }
        #expect(try titles(sortedBy: "scheduled") == ["tonight", "monday", "monday noon", "friday", "none"])
        #expect(try titles(sortedBy: "scheduled-") == ["friday", "monday noon", "monday", "tonight", "none"])
        #expect(try titles(sortedBy: "until") == ["monday", "none", "tonight", "friday", "monday noon"], "no values: ties by id")
    }

    @Test func fieldKeysTieBreakAndAreTieBroken() throws {
        for text in ["a estimate:2 pri:L", "b pri:H", "c estimate:1 pri:L", "d estimate:2 pri:H", "e pri:H estimate:1"] {
            try viewModel.add(shorthand: text)
        }
        #expect(try titles(sortedBy: "priority,estimate") == ["e", "d", "b", "c", "a"])
        #expect(try titles(sortedBy: "estimate-,priority") == ["d", "a", "e", "c", "b"])
    }

    /// An edit that changes a sorted field's value moves the row: one row edit.
    @Test func anEditMovesTheRowToItsNewPlace() throws {
        let a = try viewModel.add(shorthand: "a estimate:1")
        let b = try viewModel.add(shorthand: "b estimate:2")
        try viewModel.add(shorthand: "c")
        try viewModel.openView(.own(1), definition: ViewDefinition(sort: try ListSort(parsing: "estimate")))
        var client = viewModel.state(of: .own(1))!
        let outcome = try viewModel.perform(.modify(a, "estimate:5"))
        let change = try #require(outcome.changes[.own(1)])
        #expect(change.rowOperations.count == 1)
        client.apply(change)
        #expect(client == viewModel.state(of: .own(1)))
        #expect(client.rows.map(\.title) == ["b", "a", "c"])
        let cleared = try viewModel.perform(.modify(b, "estimate:"))
        client.apply(try #require(cleared.changes[.own(1)]))
        #expect(client.rows.map(\.title) == ["a", "b", "c"], "no value: last, ties by id")
    }

    /// Values of two kinds under one name (orphans from when the field was
    /// declared otherwise) sort numbers first, then text, and the whole
    /// view's order is the one the rules give, key by key, for many rows
    /// (where sorting a view encodes each key in words).
    @Test(arguments: [0 as UInt64, 1, 2, 3])
    func aWholeViewIsInTheOrderTheRulesGive(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let created = clock.now.addingTimeInterval(-86_400)
        let choices: [FieldValue?] = [
            nil, .number(1), .number(-2.5), .number(0), .number(1e9), .duration(60), .duration(3_600), .text("alpha"),
            .text("Alpha"), .text("béta"), .text("beta"), .date(.day(CalendarDay(year: 2026, month: 11, day: 23))),
            .date(.moment(wallClock(2026, 11, 23, 0))), .date(.moment(wallClock(2026, 11, 22, 18))),
        ]
        // The first field holds numbers only, the second text only, the third anything.
        let numbers = choices.filter { if case .text = $0 { false } else { true } }
        let texts = choices.filter { if case .text = $0 { true } else { $0 == nil } }
        let items = (1...400).map { index -> TodoItem in
            var values: [String: FieldValue] = [:]
            values["estimate"] = numbers.randomElement(using: &random)!
            values["owner"] = texts.randomElement(using: &random)!
            values["effort"] = choices.randomElement(using: &random)!
            return TodoItem(
                id: TodoID(Int64(index)), title: "item \(index % 7)", createdAt: created.addingTimeInterval(Double(index % 5)),
                project: [nil, "home", "Work"].randomElement(using: &random)!,
                priority: [nil, .high, .low].randomElement(using: &random)!, values: values)
        }
        let viewModel = TodoListViewModel(
            snapshot: ListSnapshot(items: items, nextID: TodoID(401)), clock: clock.todoClock, fields: Self.catalog)
        let today = CalendarDay.dayNumber(of: clock.now, in: clock.timeZone)
        for text in [
            "estimate", "estimate-", "owner", "owner-", "effort", "effort-", "owner,estimate-", "effort,priority",
            "effort-,owner,created", "priority,effort,title", "title,effort-", "owner-,effort,estimate",
        ] {
            for grouping: ListGrouping? in [nil, .project] {
                let definition = ViewDefinition(sort: try ListSort(parsing: text), grouping: grouping)
                let rows = try viewModel.openView(.own(1), definition: definition).rows.map(\.id)
                viewModel.closeView(.own(1))
                let order = ExpectedOrder(definition: definition, timeZone: clock.timeZone, today: today)
                let expected = items.sorted(by: order.precedes).map(\.id.rawValue)
                let first = rows.indices.first { $0 >= expected.count || rows[$0] != expected[$0] }
                #expect(rows == expected, "sorted \(text), grouped \(String(describing: grouping)): first difference at row \(String(describing: first))")
            }
        }
    }

    // MARK: Refused sorts

    @Test func aSortByAFieldTheListDoesNotDeclareIsRefusedWhenAViewIsSet() throws {
        let points = try ListSort(parsing: "priority,points-")
        let message =
            "\"points\" is not a sort key; expected keys among created, modified, title, due, priority, project, urgency, "
            + "or a declared field's name (scheduled, until, depends, parent, estimate, effort, owner), separated by commas, "
            + "each optionally followed by - to reverse it (priority,due-)"
        #expect(throws: TodoError.invalidSort(message)) {
            try viewModel.openView(.own(1), definition: ViewDefinition(sort: points))
        }
        #expect(viewModel.state(of: .own(1)) == nil)
        #expect(throws: TodoError.invalidSort(message)) { try viewModel.setOptions(of: .main, sort: points) }
        #expect(viewModel.main.properties.sort == .created)
        #expect(throws: TodoError.invalidSort(message)) { try viewModel.saveView("points", ViewDefinition(sort: points)) }
        #expect(viewModel.namedViews.map(\.name) == ["main"])
        #expect(TodoError.invalidSort(message).description == "The sort cannot be read: \(message).")
        // A field's other spelling names it in queries, not in sorts, whose text is stored as it is.
        #expect(throws: TodoError.invalidSort("\"sch\" is not a sort key; a field is sorted by its name, scheduled")) {
            try viewModel.setOptions(of: .main, sort: try ListSort(parsing: "sch"))
        }
        // Changing the rest of a view leaves its sort alone.
        #expect(try viewModel.setOptions(of: .main, sort: try ListSort(parsing: "scheduled,estimate-")) != nil)
        #expect(try viewModel.setOptions(of: .main, filter: .active) != nil)
    }

    // MARK: Queries

    @Test func aViewShowsWhatAFieldQueryMatchesAndAnEditIsOneRowEdit() throws {
        let three = try viewModel.add(shorthand: "three estimate:3")
        try viewModel.add(shorthand: "one estimate:1 owner:Ann")
        try viewModel.add(shorthand: "none")
        let definition = ViewDefinition(query: try parse("estimate.above:2 or owner:ann"), sort: try ListSort(parsing: "estimate-"))
        try viewModel.openView(.own(1), definition: definition)
        #expect(viewModel.state(of: .own(1))!.rows.map(\.title) == ["three", "one"])
        #expect(viewModel.state(of: .own(1))!.properties.query == "estimate.above:2 or owner:ann")
        var client = viewModel.state(of: .own(1))!
        let out = try viewModel.perform(.modify(three, "estimate:2"))
        #expect(out.changes[.own(1)]?.rowOperations == [.remove(index: 0)])
        client.apply(try #require(out.changes[.own(1)]))
        #expect(client == viewModel.state(of: .own(1)))
        try expectCountsMatchARecount(.own(1), definition)
    }

    /// A named view's query is stored as its text and read again with the
    /// list's fields; a list that no longer declares a field it names shows
    /// every item (as any stored query that no longer reads), sorted by the
    /// values the items still hold.
    @Test func aStoredViewIsReadWithTheListsFields() throws {
        for text in ["small estimate:1", "big estimate:8", "none", "middle estimate:4"] { try viewModel.add(shorthand: text) }
        let definition = ViewDefinition(query: try parse("not estimate:none"), sort: try ListSort(parsing: "estimate-"))
        _ = try viewModel.saveView("sized", definition)

        let restarted = TodoListViewModel(snapshot: viewModel.snapshot, clock: clock.todoClock, fields: Self.catalog)
        let sized = try restarted.openView(.shared("sized"))
        #expect(sized.properties.query == "not estimate:none")
        #expect(sized.rows.map(\.title) == ["big", "middle", "small"])

        // Where estimate is not declared the view shows everything, and
        // changing its sort keeps the stored query as it was written.
        let undeclared = TodoListViewModel(snapshot: viewModel.snapshot, clock: clock.todoClock)
        let all = try undeclared.openView(.shared("sized"))
        #expect(all.properties.query == "")
        #expect(all.rows.map(\.title) == ["big", "middle", "small", "none"])
        let resorted = try undeclared.setOptions(of: .shared("sized"), sort: try ListSort(parsing: "title"))
        #expect(resorted?.write?.viewSettings["sized"]?.query == "not estimate:none")
        #expect(undeclared.snapshot.viewSettings["sized"]?.query == "not estimate:none")
        // Declared again on a reload, the view reads its query at once.
        _ = undeclared.replaceFields(Self.catalog)
        #expect(undeclared.state(of: .shared("sized"))?.properties.query == "not estimate:none")
        #expect(undeclared.ids(of: .shared("sized")).count == 3)
    }

    /// A reload that changes a field's kind reads every view's query again:
    /// estimate:3 compared numbers, and now compares text.
    @Test func aReloadReadsEveryViewsQueryAgain() throws {
        let id = try viewModel.add(shorthand: "plan estimate:3")
        try viewModel.add("other")
        try viewModel.openView(.own(1), definition: ViewDefinition(query: try parse("estimate.above:2")))
        #expect(viewModel.ids(of: .own(1)) == [id.rawValue])
        let text = try FieldCatalog(userDefined: [FieldDeclaration(name: "estimate", label: "Estimate", kind: .text)])
        _ = viewModel.replaceFields(text)
        // No longer readable (text has no comparisons): the view shows every item, its text kept.
        #expect(viewModel.state(of: .own(1))?.properties.query == "")
        #expect(viewModel.ids(of: .own(1)).count == 2)
        _ = viewModel.replaceFields(Self.catalog)
        #expect(viewModel.state(of: .own(1))?.properties.query == "estimate.above:2")
        #expect(viewModel.ids(of: .own(1)) == [id.rawValue])
    }

    /// `ready`: an item scheduled later today joins the view when its moment
    /// comes (the command asks for a tick then, and the tick places it), one
    /// scheduled for tomorrow when the day begins.
    @Test func readyFollowsTheClock() throws {
        try viewModel.add("now")
        let tonightOutcome = try viewModel.perform(.addText("tonight sch:\"today 18:00\""))
        #expect(tonightOutcome.nextEvent == wallClock(2026, 11, 22, 18))
        try viewModel.add(shorthand: "tomorrow sch:tomorrow")
        try viewModel.add(shorthand: "begun sch:\"today 09:00\"")
        try viewModel.add(shorthand: "waiting wait:fri")
        let done = try viewModel.add(shorthand: "done sch:yesterday")
        _ = try viewModel.perform(.setDone(done, true))
        let definition = ViewDefinition(query: try parse("ready"))
        try viewModel.openView(.own(1), definition: definition)
        var client = viewModel.state(of: .own(1))!
        #expect(client.rows.map(\.title) == ["now", "begun"])
        #expect(viewModel.nextEvent == wallClock(2026, 11, 22, 18))
        try expectCountsMatchARecount(.own(1), definition)

        clock.set(to: wallClock(2026, 11, 22, 18))
        let evening = viewModel.tick()
        client.apply(try #require(evening.changes[.own(1)]))
        #expect(client == viewModel.state(of: .own(1)))
        #expect(client.rows.map(\.title) == ["now", "tonight", "begun"])
        try expectCountsMatchARecount(.own(1), definition)

        clock.set(to: wallClock(2026, 11, 23, 0))
        let midnight = viewModel.tick()
        client.apply(try #require(midnight.changes[.own(1)]))
        #expect(client.rows.map(\.title) == ["now", "tonight", "tomorrow", "begun"])
        try expectCountsMatchARecount(.own(1), definition)
    }

    /// A scheduled moment that passed since the last tick: the views, judging
    /// at the last tick, still leave the item out, so the owner must tick now.
    @Test func aScheduledMomentPassedSinceTheLastTickNeedsATickNow() throws {
        try viewModel.openView(.own(1), definition: ViewDefinition(query: try parse("ready")))
        clock.set(to: wallClock(2026, 11, 22, 16))
        let outcome = try viewModel.perform(.addText("call sch:\"today 15:00\""))
        #expect(outcome.nextEvent == clock.now)
        #expect(viewModel.state(of: .own(1))!.rows.isEmpty)
        _ = viewModel.tick()
        #expect(viewModel.state(of: .own(1))!.rows.map(\.title) == ["call"])
    }
}
