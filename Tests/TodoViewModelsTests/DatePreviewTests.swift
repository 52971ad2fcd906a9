import Foundation
import Testing
import TodoModel
import TodoViewModels

/// `previewDate(_:)`: what typed date text would be read as, in the view
/// model's clock and zone, before anything is saved with it.
@Suite struct DatePreviewTests {
    let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)  // Sunday 22 November 2026, 12:00

    @Test func aDayIsPreviewedAsADay() throws {
        let preview = try viewModel.previewDate("fri")
        #expect(preview.iso == "2026-11-27")
        #expect(preview.kind == "day")
        #expect(preview.worded == "Friday 27 November")
        #expect(preview.dueText == "due in 5 days")
    }

    @Test func aTimeMakesItAMomentInTheClocksZone() throws {
        let preview = try viewModel.previewDate("tomorrow 9am")
        #expect(preview.iso == "2026-11-23T08:00:00Z")
        #expect(preview.kind == "moment")
        #expect(preview.worded == "Monday 23 November 09:00")
        #expect(preview.dueText == "due tomorrow at 09:00")
    }

    @Test func anotherYearIsNamed() throws {
        #expect(try viewModel.previewDate("24 dec 2027").worded == "Friday 24 December 2027")
    }

    @Test func unreadableTextIsAnInvalidDueDate() {
        let error = #expect(throws: TodoError.self) { try viewModel.previewDate("someday") }
        guard case .invalidDate(.due, "someday", _)? = error else {
            Issue.record("expected an invalid due date, got \(String(describing: error))")
            return
        }
    }
}
