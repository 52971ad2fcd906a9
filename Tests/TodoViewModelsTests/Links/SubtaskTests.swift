import Foundation
import TestSupport
import Testing
import TodoModel
import TodoViewModels

/// `parent`: views list subtasks under their parent, sorted within each
/// level; a query that matches a subtask shows the path to it; completing
/// or removing a parent takes its subtasks along in one undo step; a flat
/// view lists without the tree.
@Suite struct SubtaskTests {
    let clock = TestClock()
    let viewModel: TodoListViewModel

    init() {
        viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
    }

    private func open(_ query: String = "", sort: String = "created", filter: ListFilter = .all, flat: Bool = false) throws
        -> [TodoRow]
    {
        let view = ViewID.own(Int.random(in: 1...1_000_000))
        defer { viewModel.closeView(view) }
        let definition = ViewDefinition(
            filter: filter, query: try Query.parse(query), sort: try ListSort(parsing: sort), flat: flat)
        return try viewModel.openView(view, definition: definition).rows
    }

    /// "title@depth" for each row, a `~` before a path row.
    private func outline(_ rows: [TodoRow]) -> [String] {
        rows.map { ($0.context == true ? "~" : "") + $0.title + "@\($0.depth ?? 0)" }
    }

    @Test func subtasksComeUnderTheirParentSortedWithinEachLevel() throws {
        let house = try viewModel.add(shorthand: "house")
        _ = try viewModel.add(shorthand: "zebra")
        let kitchen = try viewModel.add(shorthand: "kitchen parent:\(house)")
        _ = try viewModel.add(shorthand: "attic parent:\(house)")
        _ = try viewModel.add(shorthand: "sink parent:\(kitchen)")
        _ = try viewModel.add(shorthand: "apple")
        #expect(outline(try open(sort: "title")) == ["apple@0", "house@0", "attic@1", "kitchen@1", "sink@2", "zebra@0"])
        #expect(outline(try open(sort: "title-")) == ["zebra@0", "house@0", "kitchen@1", "sink@2", "attic@1", "apple@0"])
        #expect(outline(viewModel.main.rows) == ["house@0", "kitchen@1", "sink@2", "attic@1", "zebra@0", "apple@0"])
        let row = try #require(viewModel.main.rows.first { $0.title == "kitchen" })
        #expect(row.values?["parent"] == .number(Double(house.rawValue)))
    }

    @Test func aQueryThatMatchesASubtaskShowsThePathToIt() throws {
        let house = try viewModel.add(shorthand: "house")
        let kitchen = try viewModel.add(shorthand: "kitchen parent:\(house)")
        _ = try viewModel.add(shorthand: "sink +plumber parent:\(kitchen)")
        _ = try viewModel.add(shorthand: "roof +plumber")
        let view = ViewID.own(1)
        let state = try viewModel.openView(view, definition: ViewDefinition(query: try Query.parse("+plumber")))
        #expect(outline(state.rows) == ["~house@0", "~kitchen@1", "sink@2", "roof@0"])
        #expect(state.properties.itemsLeft == "2 items left", "path rows are not counted")
        #expect(outline(try open("+plumber", flat: true)) == ["sink@0", "roof@0"])
    }

    @Test func completingAParentCompletesItsOpenSubtasksInOneStep() throws {
        let house = try viewModel.add(shorthand: "house")
        let kitchen = try viewModel.add(shorthand: "kitchen parent:\(house)")
        let sink = try viewModel.add(shorthand: "sink parent:\(kitchen)")
        let outcome = try viewModel.perform(.setDone(house, true))
        #expect(outcome.description?.contains("and 2 open subtasks") == true, "\(outcome.description ?? "")")
        #expect([house, kitchen, sink].allSatisfy { viewModel.item($0)?.isDone == true })
        try viewModel.perform(.undo)
        #expect([house, kitchen, sink].allSatisfy { viewModel.item($0)?.isDone == false })
    }

    @Test func reopeningASubtaskReopensItsParents() throws {
        let house = try viewModel.add(shorthand: "house")
        let kitchen = try viewModel.add(shorthand: "kitchen parent:\(house)")
        let sink = try viewModel.add(shorthand: "sink parent:\(kitchen)")
        try viewModel.perform(.setDone(house, true))
        try viewModel.perform(.setDone(sink, false))
        #expect([house, kitchen, sink].allSatisfy { viewModel.item($0)?.isDone == false })
        try viewModel.perform(.setDone(house, true))
        _ = try viewModel.add(shorthand: "tap parent:\(kitchen)")
        #expect(viewModel.item(house)?.isDone == false, "a new subtask under a done parent reopens it")
    }

    @Test func removingAParentRemovesItsSubtasksInOneStep() throws {
        let house = try viewModel.add(shorthand: "house")
        let kitchen = try viewModel.add(shorthand: "kitchen parent:\(house)")
        _ = try viewModel.add(shorthand: "sink parent:\(kitchen)")
        let other = try viewModel.add(shorthand: "other depends:\(kitchen)")
        let outcome = try viewModel.perform(.delete(house))
        #expect(outcome.description?.contains("and 2 subtasks") == true)
        #expect(viewModel.main.rows.map(\.title) == ["other"])
        #expect(viewModel.item(other)?.depends == [])
        try viewModel.perform(.undo)
        #expect(outline(viewModel.main.rows) == ["house@0", "kitchen@1", "sink@2", "other@0"])
        #expect(viewModel.item(other)?.depends == [kitchen])
    }

    @Test func aParentCannotBeItsOwnDescendant() throws {
        let house = try viewModel.add(shorthand: "house")
        let kitchen = try viewModel.add(shorthand: "kitchen parent:\(house)")
        let sink = try viewModel.add(shorthand: "sink parent:\(kitchen)")
        let before = viewModel.snapshot
        #expect(throws: TodoError.invalidLink(field: "parent", problem: .cycle([house, sink, kitchen, house]))) {
            try viewModel.perform(.modify(house, "parent:\(sink)"))
        }
        #expect(throws: TodoError.invalidLink(field: "parent", problem: .missing(TodoID(77)))) {
            try viewModel.perform(.addText("y parent:77"))
        }
        #expect(throws: TodoError.invalidLink(field: "parent", problem: .itself(house))) {
            try viewModel.perform(.modify(house, "parent:\(house)"))
        }
        #expect(viewModel.snapshot == before)
    }

    @Test func movingASubtreeMovesItsRowsInEveryView() throws {
        let house = try viewModel.add(shorthand: "house")
        let garden = try viewModel.add(shorthand: "garden")
        let kitchen = try viewModel.add(shorthand: "kitchen parent:\(house)")
        _ = try viewModel.add(shorthand: "sink parent:\(kitchen)")
        var client = viewModel.main
        let outcome = try viewModel.perform(.modify(kitchen, "parent:\(garden)"))
        client.apply(outcome.changes[.main]!)
        #expect(client == viewModel.main)
        #expect(outline(client.rows) == ["house@0", "garden@0", "kitchen@1", "sink@2"])
        let again = try viewModel.perform(.modify(kitchen, "parent:"))
        client.apply(again.changes[.main]!)
        #expect(outline(client.rows) == ["house@0", "garden@0", "kitchen@0", "sink@1"])
    }

    @Test func aCycleAnotherProgramWroteShowsEachOfItsItemsAtTheTop() throws {
        var a = TodoItem(id: TodoID(1), title: "a", createdAt: clock.now)
        var b = TodoItem(id: TodoID(2), title: "b", createdAt: clock.now)
        a.values["parent"] = .items([TodoID(2)])
        b.values["parent"] = .items([TodoID(1)])
        var c = TodoItem(id: TodoID(3), title: "c", createdAt: clock.now)
        c.values["parent"] = .items([TodoID(1)])
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(items: [a, b, c], nextID: TodoID(4)), clock: clock.todoClock)
        #expect(outline(viewModel.main.rows) == ["a@0", "c@1", "b@0"])
        try viewModel.perform(.setDone(TodoID(1), true))
        #expect(viewModel.main.rows.count == 3)
    }

    @Test func aSubtaskTurningOverdueBringsItsPathWithItAtTheTick() throws {
        let house = try viewModel.add(shorthand: "house")
        let sink = try viewModel.add(shorthand: "sink parent:\(house)")
        try viewModel.perform(.setDue(sink, .moment(clock.now.addingTimeInterval(3_600))))
        let view = ViewID.own(1)
        var client = try viewModel.openView(view, definition: ViewDefinition(query: try Query.parse("overdue")))
        #expect(client.rows.isEmpty)
        clock.advance(by: 7_200)
        let outcome = viewModel.tick()
        client.apply(try #require(outcome.changes[view]))
        #expect(outline(client.rows) == ["~house@0", "sink@1"])
        #expect(client == viewModel.state(of: view))
    }
}
