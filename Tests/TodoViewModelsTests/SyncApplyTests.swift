import Foundation
import Testing
import TodoInterchange
import TodoModel
import TodoViewModels

/// What a calendar sync brings in (`planSync`), in-process with an
/// injected clock: one undo step named "sync: …"; to-dos updated by UID or
/// added; a server's deletion taking that item only; a repeating to-do
/// completed on a calendar completed here with its next occurrence; new
/// identities; and a cancelled to-do kept open with its status.
@Suite struct SyncApplyTests {
    static func calendar(_ todos: String...) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Example//Phone//EN\r\n" + todos.joined() + "END:VCALENDAR\r\n"
    }

    static func todo(_ uid: String, _ lines: String...) -> String {
        "BEGIN:VTODO\r\nUID:\(uid)\r\nDTSTAMP:20261127T090000Z\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VTODO\r\n"
    }

    func uid(of id: TodoID, in viewModel: TodoListViewModel) -> String {
        ExternalIdentity.of(viewModel.item(id)!, listID: viewModel.listID)
    }

    @Test func aSyncUpdatesByUIDAddsAndIsOneUndoStep() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let milk = try viewModel.add("buy milk")
        var changes = TodoListViewModel.SyncChanges()
        changes.text = Self.calendar(
            Self.todo(uid(of: milk, in: viewModel), "SUMMARY:buy oat milk"), Self.todo("phone-1@example.com", "SUMMARY:from the phone"))
        let plan = try viewModel.planSync(changes)
        let outcome = try viewModel.perform(.applyImport(plan))
        #expect(outcome.description == "sync: add 1 item, update 1 item")
        #expect(viewModel.main.rows.map(\.title) == ["buy oat milk", "from the phone"])
        _ = try viewModel.perform(.undo)
        #expect(viewModel.main.rows.map(\.title) == ["buy milk"])
    }

    @Test func aServersDeletionTakesThatItemOnlyItsSubtasksStay() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let trip = try viewModel.add("plan the trip")
        let flights = try viewModel.add(shorthand: "book flights parent:\(trip.rawValue)")
        let passport = try viewModel.add(shorthand: "renew passport depends:\(trip.rawValue)")
        var changes = TodoListViewModel.SyncChanges()
        changes.remove = [uid(of: trip, in: viewModel), "gone-already@example.com"]
        let outcome = try viewModel.perform(.applyImport(try viewModel.planSync(changes)))
        #expect(outcome.description == "sync: delete 1 item")
        #expect(viewModel.item(trip) == nil)
        #expect(viewModel.item(flights)?.parent == nil)
        #expect(viewModel.item(passport)?.depends == [])
        #expect(viewModel.main.rows.count == 2)
    }

    @Test func aRepeatingToDoCompletedOnACalendarBringsItsNextOccurrence() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let plants = try viewModel.add(shorthand: "water plants recur:weekly due:2026-12-01")
        var changes = TodoListViewModel.SyncChanges()
        changes.complete = [uid(of: plants, in: viewModel)]
        let outcome = try viewModel.perform(.applyImport(try viewModel.planSync(changes)))
        #expect(outcome.description == "sync: complete 1 item")
        #expect(viewModel.item(plants)?.isDone == true)
        let next = try #require(viewModel.main.rows.first { !$0.done })
        #expect(next.title == "water plants")
        #expect(next.due == "2026-12-08")

        // The next occurrence takes the UID the server knows; the completed one a new one.
        let known = uid(of: plants, in: viewModel)
        let nextUID = uid(of: TodoID(next.id), in: viewModel)
        var renames = TodoListViewModel.SyncChanges()
        renames.renames = [(known, "completed-1@example.com"), (nextUID, known)]
        _ = try viewModel.perform(.applyImport(try viewModel.planSync(renames)))
        #expect(viewModel.itemID(withIdentity: known) == TodoID(next.id))
        #expect(viewModel.itemID(withIdentity: "completed-1@example.com") == plants)
    }

    @Test func aCancelledToDoIsKeptOpenWithItsStatus() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        var changes = TodoListViewModel.SyncChanges()
        changes.text = Self.calendar(Self.todo("cancelled@example.com", "SUMMARY:the party", "STATUS:CANCELLED"))
        _ = try viewModel.perform(.applyImport(try viewModel.planSync(changes)))
        let id = try #require(viewModel.itemID(withIdentity: "cancelled@example.com"))
        #expect(viewModel.item(id)?.isDone == false)
        #expect(viewModel.item(id)?.foreign.icalendar.contains("STATUS:CANCELLED") == true)
        // A file's import still leaves cancelled to-dos out.
        let plan = try viewModel.planImport(Self.calendar(Self.todo("other@example.com", "SUMMARY:x", "STATUS:CANCELLED")), format: .ical)
        #expect(plan.entries.map(\.action) == [.skip])
    }
}
