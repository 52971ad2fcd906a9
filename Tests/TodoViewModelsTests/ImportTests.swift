import Foundation
import Testing
import TodoInterchange
import TodoModel
import TodoViewModels

/// An import through the view model: one undo step for the whole file,
/// every view told, and a plan that no longer fits the list refused.
@Suite struct ImportTests {
    static let text = "(A) call Mom +family @phone due:2026-11-25\nx 2026-11-21 file taxes\nwater plants rec:+1w\n"

    @Test func anImportIsOneUndoStepAndEveryViewSeesIt() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        _ = try viewModel.add("already here")
        let plan = try viewModel.planImport(Self.text, format: .todotxt)
        #expect(plan.entries.map(\.action) == [.add, .add, .add])
        #expect(viewModel.main.rows.count == 1, "planning changes nothing")
        let outcome = try viewModel.perform(.applyImport(plan))
        #expect(outcome.description == "import from todo.txt: add 3 items")
        #expect(outcome.write?.changes.count == 3)
        #expect(viewModel.main.rows.map(\.title) == ["already here", "call Mom", "file taxes", "water plants"])
        #expect(viewModel.main.properties.itemsLeft == "3 items left")
        let undone = try viewModel.perform(.undo)
        #expect(undone.description?.hasPrefix("undid: import from todo.txt") == true, "\(undone.description ?? "")")
        #expect(viewModel.main.rows.map(\.title) == ["already here"])
    }

    @Test func aPlanMadeBeforeAnotherChangeIsRefused() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let plan = try viewModel.planImport(Self.text, format: .todotxt)
        _ = try viewModel.add("sneaked in")
        #expect(throws: TodoError.importOutdated) { try viewModel.perform(.applyImport(plan)) }
        #expect(viewModel.main.rows.map(\.title) == ["sneaked in"])
    }

    @Test func aBadFileIsRefusedWithWhereAndNothingChanges() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        #expect(throws: TodoError.invalidImport(location: "line 2", message: "due:soon is not a date (write YYYY-MM-DD)")) {
            try viewModel.planImport("fine\nbad due:soon\n", format: .todotxt)
        }
    }

    @Test func anExportHoldsWhatTheQueryMatchesDoneItemsToo() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let done = try viewModel.add(shorthand: "filed +home")
        _ = try viewModel.perform(.setDone(done, true))
        _ = try viewModel.add(shorthand: "paint +home")
        _ = try viewModel.add(shorthand: "report +work")
        #expect(try viewModel.exportedItems(matching: try Query.parse("+home")).map(\.title) == ["filed", "paint"])
        #expect(try viewModel.exportedItems(matching: .all).count == 3)
    }
}
