import Foundation
import Testing
import TodoModel
import TodoViewModels

/// Every command that changes a field records when (`fieldChangedAt`), so
/// that `details(of:)` (what `todoctl show` prints) can say it; fields set
/// when the item was added count as set then, not as changed.
@Suite struct FieldChangeTimeTests {
    let clock = TestClock()
    let viewModel: TodoListViewModel
    let id: TodoID

    init() throws {
        viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
        id = try viewModel.add(shorthand: "milk +errands due:fri pri:L")
        clock.advance(by: 3600)
    }

    private func changedFields(after command: TodoCommand) throws -> [ItemField: Date] {
        _ = try viewModel.perform(command)
        return viewModel.item(id)?.fieldChangedAt ?? [:]
    }

    @Test func anAddedItemHasNoChangedFields() throws {
        #expect(viewModel.item(id)?.fieldChangedAt == [:])
        #expect(try viewModel.details(of: id).changes.isEmpty)
    }

    @Test(arguments: [
        (TodoCommand.edit(TodoID(1), title: "oat milk"), ItemField.title),
        (.modify(TodoID(1), "oat milk"), .title),
        (.setDone(TodoID(1), true), .done),
        (.setDue(TodoID(1), nil), .due),
        (.setDueText(TodoID(1), "mon"), .due),
        (.modify(TodoID(1), "-errands"), .tags),
        (.modify(TodoID(1), "project:home"), .project),
        (.modify(TodoID(1), "pri:H"), .priority),
        (.modify(TodoID(1), "wait:mon"), .wait),
        (.modify(TodoID(1), "recur:weekly"), .recurrence),
        (.addNote(TodoID(1), "semi-skimmed"), .notes),
    ])
    func aCommandRecordsWhenItChangedItsField(command: TodoCommand, field: ItemField) throws {
        #expect(try changedFields(after: command) == [field: clock.now])
        let details = try viewModel.details(of: id)
        #expect(details.changes.map(\.field) == [field.rawValue])
        #expect(details.changes.first?.text == "\(field.rawValue) changed 2026-11-22 13:00 (today)")
    }

    @Test func toggleAllRecordsTheStatusChange() throws {
        #expect(try changedFields(after: .toggleAll) == [.done: clock.now])
    }

    @Test func undoBringsBackTheTimesAsTheyWere() throws {
        _ = try viewModel.perform(.modify(id, "pri:H"))
        let before = viewModel.item(id)?.fieldChangedAt
        clock.advance(by: 60)
        _ = try viewModel.perform(.edit(id, title: "oat milk"))
        _ = try viewModel.perform(.undo)
        #expect(viewModel.item(id)?.fieldChangedAt == before)
    }
}
