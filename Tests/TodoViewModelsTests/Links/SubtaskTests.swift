import Foundation
import TestSupport
import Testing
import TodoModel
import TodoViewModels
import TodoViewState

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
        #expect(throws: TodoError.inWord(ShorthandWord("parent:\(sink)", at: 0), .invalidLink(field: "parent", problem: .cycle([house, sink, kitchen, house])))) {
            try viewModel.perform(.modify(house, "parent:\(sink)"))
        }
        #expect(throws: TodoError.inWord(ShorthandWord("parent:77", at: 2), .invalidLink(field: "parent", problem: .missing(TodoID(77))))) {
            try viewModel.perform(.addText("y parent:77"))
        }
        #expect(throws: TodoError.inWord(ShorthandWord("parent:\(house)", at: 0), .invalidLink(field: "parent", problem: .itself(house)))) {
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

    @Test func reopeningARepeatingItemKeepsANextOccurrenceThatGainedASubtask() throws {
        let water = try viewModel.add(shorthand: "water due:2030-01-01 recur:daily")
        try viewModel.perform(.setDone(water, true))
        let next = try #require(viewModel.snapshot.items.first { $0.id != water })
        let can = try viewModel.add(shorthand: "fill the can parent:\(next.id)")
        try viewModel.perform(.setDone(water, false))
        #expect(viewModel.item(next.id) != nil, "the occurrence with a subtask stays")
        #expect(viewModel.item(can)?.parent == next.id)
        let fresh = try viewModel.openView(.own(9), definition: ViewDefinition())
        #expect(fresh.rows == viewModel.main.rows)
    }

    @Test func treesGoAtMostThirtyTwoLevelsDeep() throws {
        var parent = try viewModel.add(shorthand: "level 0")
        for level in 1..<ItemLinks.maximumDepth + 1 { parent = try viewModel.add(shorthand: "level \(level) parent:\(parent)") }
        #expect(viewModel.main.rows.last?.depth == ItemLinks.maximumDepth)
        let tooDeep = TodoError.invalidLink(field: "parent", problem: .tooDeep(maximum: ItemLinks.maximumDepth))
        #expect(throws: TodoError.inWord(ShorthandWord("parent:\(parent)", at: 9), tooDeep)) {
            try viewModel.perform(.addText("too deep parent:\(parent)"))
        }
        // Moving a subtree under another is judged by its deepest subtask.
        let other = try viewModel.add(shorthand: "other")
        _ = try viewModel.add(shorthand: "under other parent:\(other)")
        #expect(throws: TodoError.inWord(ShorthandWord("parent:\(parent)", at: 0), tooDeep)) {
            try viewModel.perform(.modify(other, "parent:\(parent)"))
        }
    }

    @Test func aChainDeeperThanTheLimitFromAFileStopsThereAndStaysInOrder() throws {
        var items: [TodoItem] = []
        for index in 1...100 {
            var item = TodoItem(id: TodoID(Int64(index)), title: "level \(index)", createdAt: clock.now)
            if index > 1 { item.values["parent"] = .items([TodoID(Int64(index - 1))]) }
            items.append(item)
        }
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(items: items, nextID: TodoID(101)), clock: clock.todoClock)
        #expect(viewModel.main.rows.map { $0.depth ?? 0 }.max() == ItemLinks.maximumDepth)
        var client = viewModel.main
        for id in [1, 20, 33, 34, 60] {
            let outcome = try viewModel.perform(.edit(TodoID(Int64(id)), title: "renamed \(id)"))
            if let change = outcome.changes[.main] { client.apply(change) }
        }
        let outcome = try viewModel.perform(.setDone(TodoID(1), true))
        if let change = outcome.changes[.main] { client.apply(change) }
        let fresh = try viewModel.openView(.own(3), definition: ViewDefinition())
        #expect(client.rows == fresh.rows)
        #expect(client == viewModel.main)
    }

    @Test func aTransactionOfManyChangesThatMovesASubtreeGivesTheFreshOrder() throws {
        let house = try viewModel.add(shorthand: "house")
        let garden = try viewModel.add(shorthand: "garden")
        let kitchen = try viewModel.add(shorthand: "kitchen parent:\(house)")
        _ = try viewModel.add(shorthand: "sink parent:\(kitchen)")
        var client = viewModel.main
        let commands = [TodoCommand.modify(kitchen, "parent:\(garden)")]
            + (0..<TodoListViewModel.resetThreshold).map { TodoCommand.addText("item \($0)") }
        let outcome = try viewModel.perform(transaction: commands)
        client.apply(try #require(outcome.changes[.main]))
        let fresh = try viewModel.openView(.own(4), definition: ViewDefinition())
        #expect(client.rows == fresh.rows)
        #expect(Array(outline(client.rows).prefix(4)) == ["house@0", "garden@0", "kitchen@1", "sink@2"])
    }
}
