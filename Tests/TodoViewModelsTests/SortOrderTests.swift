import Foundation
import Testing
import TodoModel
import TodoViewModels
import TodoViewState

/// The order of a view's rows for each sort key and their combinations:
/// usual directions, missing values last in both directions, ties by the
/// next key and then by id.
@Suite struct SortOrderTests {
    let clock = TestClock()  // Sunday 22 November 2026, 12:00 in Berlin
    let viewModel: TodoListViewModel

    init() {
        viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
    }

    private func titles(sortedBy text: String, grouping: ListGrouping? = nil) throws -> [String] {
        let view = ViewID.own(Int.random(in: 1...1_000_000))
        defer { viewModel.closeView(view) }
        let definition = ViewDefinition(sort: try ListSort(parsing: text), grouping: grouping)
        return try viewModel.openView(view, definition: definition).rows.map(\.title)
    }

    @Test func priorityIsHighestFirstAndNoneLastInBothDirections() throws {
        for text in ["none", "low pri:L", "high pri:H", "medium pri:M", "none too"] { try viewModel.add(shorthand: text) }
        #expect(try titles(sortedBy: "priority") == ["high", "medium", "low", "none", "none too"])
        #expect(try titles(sortedBy: "priority-") == ["low", "medium", "high", "none", "none too"])
    }

    @Test func dueIsSoonestFirstAndUndatedLastInBothDirections() throws {
        for text in ["undated", "friday due:fri", "monday due:mon", "friday evening due:\"fri 18:00\"", "undated too"] {
            try viewModel.add(shorthand: text)
        }
        #expect(try titles(sortedBy: "due") == ["monday", "friday", "friday evening", "undated", "undated too"])
        #expect(try titles(sortedBy: "due-") == ["friday evening", "friday", "monday", "undated", "undated too"])
    }

    @Test func laterKeysBreakTheTiesOfEarlierOnes() throws {
        for text in ["a pri:H due:fri", "b due:mon", "c pri:H due:mon", "d pri:L", "e pri:H", "f"] { try viewModel.add(shorthand: text) }
        #expect(try titles(sortedBy: "priority,due") == ["c", "a", "e", "d", "b", "f"])
        #expect(try titles(sortedBy: "priority,due-") == ["a", "c", "e", "d", "b", "f"])
        #expect(try titles(sortedBy: "due,priority-") == ["c", "b", "a", "d", "e", "f"])
    }

    @Test func titlesAreInNaturalOrder() throws {
        for title in ["item 10", "Item 2", "item 1", "apple", "Zebra"] { try viewModel.add(title) }
        #expect(try titles(sortedBy: "title") == ["apple", "item 1", "Item 2", "item 10", "Zebra"])
        #expect(try titles(sortedBy: "title-") == ["Zebra", "item 10", "Item 2", "item 1", "apple"])
    }

    @Test func projectsAreAToZIgnoringCaseAndNoneLast() throws {
        for text in ["none", "w project:work", "H project:Home", "g project:home.garden", "a project:admin"] {
            try viewModel.add(shorthand: text)
        }
        #expect(try titles(sortedBy: "project") == ["a", "H", "g", "w", "none"])
        #expect(try titles(sortedBy: "project-") == ["w", "g", "H", "a", "none"])
    }

    @Test func modifiedIsOldestChangeFirst() throws {
        let a = try viewModel.add("a")
        try viewModel.add("b")
        try viewModel.openView(.own(1), definition: ViewDefinition(sort: try ListSort(parsing: "modified")))
        clock.advance(by: 60)
        let outcome = try viewModel.perform(.modify(a, "pri:H"))
        #expect(viewModel.state(of: .own(1))!.rows.map(\.title) == ["b", "a"])
        #expect(outcome.changes[.own(1)]?.rowOperations.count == 1)
        #expect(try titles(sortedBy: "modified-") == ["a", "b"])
    }

    @Test func groupingComesBeforeEverySortKey() throws {
        for text in ["a pri:L project:work", "b pri:H", "c pri:M project:home", "d pri:H project:work"] { try viewModel.add(shorthand: text) }
        #expect(try titles(sortedBy: "priority", grouping: .project) == ["c", "d", "a", "b"])
    }

    /// Urgency: highest score first, ties by id, as `Urgency.score` counts
    /// it (its terms are in its documentation; two are checked by hand here).
    @Test func urgencyOrderIsTheScoreHighestFirst() throws {
        let texts = [
            "plain", "pressing pri:H due:today +a +b project:x", "late due:yesterday", "soon due:tomorrow pri:L",
            "far due:2027-03-01 +a", "waiting wait:fri pri:H", "tagged +a +b +c", "medium pri:M project:y", "done pri:H",
        ]
        for text in texts { try viewModel.add(shorthand: text) }
        _ = try viewModel.perform(.setDone(TodoID(9), true))
        let items = viewModel.snapshot.items
        let today = CalendarDay.dayNumber(of: clock.now, in: clock.timeZone)
        func score(_ item: TodoItem) -> Double { Urgency.score(of: item, today: today, timeZone: clock.timeZone) }
        #expect(score(items[1]) == 17.9)  // H 6, due today 10, two tags 0.9, a project 1
        #expect(score(items[5]) == 3)  // H 6, waiting -3
        #expect(score(items[8]) == 0)
        let expected = items.sorted { (-score($0), $0.id) < (-score($1), $1.id) }.map(\.title)
        try viewModel.openView(.own(1), definition: ViewDefinition(query: try Query.parse("status:all"), sort: .urgency))
        #expect(viewModel.state(of: .own(1))!.rows.map(\.title) == expected)
        #expect(expected.prefix(3) == ["pressing", "late", "soon"])
    }

    @Test func urgencyGrowsWithAgeAndTheNewDay() throws {
        let id = try viewModel.add(shorthand: "due friday due:fri")
        let item = try #require(viewModel.item(id))
        let today = CalendarDay.dayNumber(of: clock.now, in: clock.timeZone)
        #expect(Urgency.score(of: item, today: today, timeZone: clock.timeZone) == 7.5)  // due in 5 days: 10 - 0.5 × 5
        #expect(Urgency.score(of: item, today: today + 1, timeZone: clock.timeZone) == 8.01)  // in 4 days, and a day old
        #expect(Urgency.score(of: item, today: today + 300, timeZone: clock.timeZone) == 14)  // overdue 12, and the age term at its cap of 2
    }
}
