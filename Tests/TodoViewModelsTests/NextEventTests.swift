import Foundation
import Testing
import TodoModel
import TodoViewModels

/// When to tick next. The daemon sets its timer from `nextEvent` after a
/// tick and from a command's `outcome.nextEvent`, and ticks at no other
/// time: a moment at which an item a command touched turns overdue, stops
/// waiting or fires a reminder must be in the command's outcome, or the
/// views show the item as it was until some later tick.
@Suite struct NextEventTests {
    let clock = TestClock()  // Sunday 22 November 2026, 12:00 in Berlin
    let viewModel: TodoListViewModel

    init() {
        viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
    }

    @Test func aDueMomentAheadIsTheNextEvent() throws {
        let outcome = try viewModel.perform(.addText("call due:\"today 14:00\""))
        #expect(outcome.nextEvent == wallClock(2026, 11, 22, 14))
    }

    @Test func theEndOfAWaitAheadIsTheNextEvent() throws {
        let id = try viewModel.add("later")
        let moment = try viewModel.perform(.modify(id, "wait:\"today 15:00\""))
        #expect(moment.nextEvent == wallClock(2026, 11, 22, 15))
        let day = try viewModel.perform(.modify(id, "wait:mon"))
        #expect(day.nextEvent == wallClock(2026, 11, 23, 0))
        #expect(viewModel.nextEvent == wallClock(2026, 11, 23, 0))
    }

    /// The clock has moved on since the last tick, and an item comes in
    /// whose wait is already over: the views, judging at the last tick,
    /// hide it, so the owner must tick at once.
    @Test func aWaitAlreadyOverSinceTheLastTickNeedsATickNow() throws {
        clock.set(to: wallClock(2026, 11, 22, 16))
        let outcome = try viewModel.perform(.addText("later wait:\"today 15:00\""))
        #expect(outcome.nextEvent == clock.now)
        _ = viewModel.tick()
        #expect(viewModel.main.rows.map(\.title) == ["later"])
    }

    /// An item whose overdue reminder fired long ago is moved to a due
    /// moment that passed after the last tick: no reminder will fire, but
    /// the views must still count it as overdue, so the owner must tick.
    @Test func anItemTurnedOverdueSinceTheLastTickNeedsATickNow() throws {
        let id = try viewModel.add(shorthand: "call due:\"today 12:30\"")
        clock.set(to: wallClock(2026, 11, 22, 12, 45))
        #expect(viewModel.tick().write?.firedReminders == [ReminderKey(itemID: id, condition: .overdue)])
        _ = try viewModel.perform(.modify(id, "due:tomorrow"))
        clock.set(to: wallClock(2026, 11, 22, 13, 30))
        let outcome = try viewModel.perform(.modify(id, "due:\"today 13:00\""))
        #expect(outcome.nextEvent == clock.now)
        _ = viewModel.tick()
        #expect(viewModel.main.properties.overdueCount == 1)
    }
}
