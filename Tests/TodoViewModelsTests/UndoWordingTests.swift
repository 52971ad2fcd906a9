import Foundation
import Testing
import TodoModel
import TodoViewModels

/// Undo and redo say which step they took back or brought back, and what
/// that did to the list, so "undo of a delete" never reads as a delete.
@Suite struct UndoWordingTests {
    let clock = TestClock()
    let viewModel: TodoListViewModel

    init() {
        viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
    }

    private func say(_ command: TodoCommand) throws -> String? {
        try viewModel.perform(command).description
    }

    @Test func aDeletedItemIsBackAndGoneAgain() throws {
        let milk = try viewModel.add("milk")
        #expect(try say(.delete(milk)) == "delete “milk”")
        #expect(try say(.undo) == "undid: delete “milk” (“milk” is back)")
        #expect(try say(.redo) == "redid: delete “milk” (“milk” is gone)")
        #expect(try say(.undo) == "undid: delete “milk” (“milk” is back)")
    }

    @Test func anAddedItemIsGone() throws {
        try viewModel.add("milk")
        #expect(try say(.undo) == "undid: add “milk” (“milk” is gone)")
        #expect(try say(.redo) == "redid: add “milk” (“milk” is back)")
    }

    @Test func oneItemsChangesAreNamed() throws {
        let milk = try viewModel.add("milk")
        _ = try say(.setDone(milk, true))
        #expect(try say(.undo) == "undid: complete “milk” (“milk” is active)")
        #expect(try say(.redo) == "redid: complete “milk” (“milk” is done)")

        let step = try say(.edit(milk, title: "oat milk"))
        #expect(try say(.undo) == "undid: \(step!) (“oat milk” is “milk” now)")

        let day = CalendarDay(year: 2031, month: 1, day: 7)
        let due = try say(.setDue(milk, .day(day)))
        #expect(try say(.undo) == "undid: \(due!) (“milk” has no due date)")
        let redone = try #require(try say(.redo))
        #expect(redone.hasPrefix("redid: \(due!) (“milk” is due "), "\(redone)")
    }

    @Test func severalItemsAreCounted() throws {
        let milk = try viewModel.add("milk")
        try viewModel.add("bread")
        try viewModel.add("eggs")
        _ = try say(.setDone(milk, true))
        _ = try say(.clearCompleted)
        #expect(try say(.undo) == "undid: clear 1 completed item (“milk” is back)")
        _ = try say(.toggleAll)
        #expect(try say(.undo) == "undid: mark all done (2 items changed)")  // bread and eggs
    }
}
