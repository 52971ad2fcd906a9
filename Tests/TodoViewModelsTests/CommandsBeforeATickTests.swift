import Foundation
import Testing
import TodoModel
import TodoViewModels

/// The daemon ticks just after each moment an item turns overdue or stops
/// waiting, but a command or a new view can come first: the clock has
/// passed the moment and the tick has not run. Whatever comes in between,
/// once the tick has run the counters must equal a recount.
@Suite struct CommandsBeforeATickTests {
    let clock = TestClock()  // Sunday 22 November 2026, 12:00 in Berlin
    let viewModel: TodoListViewModel
    let soon: TodoID

    init() throws {
        viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
        soon = try viewModel.add(shorthand: "soon +home due:\"today 12:30\"")
        try viewModel.add("plain")
        _ = viewModel.tick()
        // Past the due moment, before the tick that would follow it.
        clock.set(to: wallClock(2026, 11, 22, 12, 45))
    }

    private func expectCountsMatchARecount(
        _ view: ViewID = .main, _ definition: ViewDefinition = ViewDefinition(), sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let recount = try Recount(items: viewModel.snapshot.items, definition: definition, now: clock.now, timeZone: clock.timeZone)
        #expect(Recount(viewModel.state(of: view)!) == recount, sourceLocation: sourceLocation)
    }

    @Test func completingTheItemBeforeTheTick() throws {
        _ = try viewModel.perform(.setDone(soon, true))
        _ = viewModel.tick()
        try expectCountsMatchARecount()
        #expect(viewModel.main.properties.overdueCount == 0)
    }

    @Test func movingItsDueDateBeforeTheTick() throws {
        _ = try viewModel.perform(.modify(soon, "due:tomorrow"))
        _ = viewModel.tick()
        try expectCountsMatchARecount()
        #expect(viewModel.main.properties.overdueCount == 0)
    }

    @Test func addingAnItemDueInThePastBeforeTheTick() throws {
        try viewModel.add(shorthand: "missed due:\"today 12:40\"")
        _ = viewModel.tick()
        try expectCountsMatchARecount()
        #expect(viewModel.main.properties.overdueCount == 2)
    }

    @Test func openingAViewBeforeTheTick() throws {
        let definition = ViewDefinition(query: try Query.parse("+home"))
        try viewModel.openView(.own(1), definition: definition)
        _ = viewModel.tick()
        try expectCountsMatchARecount(.own(1), definition)
        #expect(viewModel.state(of: .own(1))!.properties.overdueCount == 1)
    }

    @Test func savingAViewBeforeTheTick() throws {
        let definition = ViewDefinition(query: try Query.parse("overdue or +home"))
        _ = try viewModel.saveView("late", definition)
        _ = viewModel.tick()
        try expectCountsMatchARecount(.shared("late"), definition)
    }

    /// Enough changes at once that every view is rebuilt rather than edited.
    @Test func aBulkCommandBeforeTheTick() throws {
        let adds = (0...TodoListViewModel.resetThreshold).map { TodoCommand.add(title: "item \($0)", due: nil) }
        _ = try viewModel.perform(transaction: adds)
        _ = viewModel.tick()
        try expectCountsMatchARecount()
        #expect(viewModel.main.properties.overdueCount == 1)
    }

    /// A tick whose write (the reminders it fired) failed is taken back; the
    /// items it re-judged must not be re-judged again by the next tick.
    @Test func aTickTakenBackAfterAFailedWrite() throws {
        let failed = viewModel.tick()
        #expect(failed.write?.firedReminders == [ReminderKey(itemID: soon, condition: .overdue)])
        viewModel.revert(try #require(failed.applied))
        let again = viewModel.tick()
        #expect(again.write?.firedReminders == [ReminderKey(itemID: soon, condition: .overdue)])
        try expectCountsMatchARecount()
        #expect(viewModel.main.properties.overdueCount == 1)
    }
}
