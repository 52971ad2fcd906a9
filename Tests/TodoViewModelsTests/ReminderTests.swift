import Foundation
import Testing
import TodoModel
import TodoViewModels
import TodoViewState

/// Reminders (the seeds' "case 2") on a test clock: they fire once per item
/// and condition, are pushed as a property change, clear when the item is
/// done or deleted, and survive restarts without firing again.
@Suite struct ReminderTests {
    let clock = TestClock()
    let viewModel: TodoListViewModel

    init() throws {
        viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock, reminderAge: 86_400)
    }

    private var alerts: [ReminderAlert] { viewModel.main.properties.alerts }

    @Test func anItemLeftUndoneForADayRaisesOneReminder() throws {
        let milk = try viewModel.add("milk")
        #expect(viewModel.nextEvent == clock.now.addingTimeInterval(12 * 3600))  // midnight comes first
        clock.advance(by: 86_400 - 1)
        _ = viewModel.tick()
        #expect(alerts.isEmpty)

        clock.advance(by: 1)
        let fired = viewModel.tick()
        #expect(fired.changes[.main]?.changedKeys.contains("alerts") == true)
        #expect(alerts == [ReminderAlert(id: milk.rawValue, condition: .waiting, message: "“milk” has waited for more than a day")])
        #expect(viewModel.main.properties.alertCount == 1)
        #expect(viewModel.snapshot.firedReminders == [ReminderKey(itemID: milk, condition: .waiting)])

        clock.advance(by: 3600)
        #expect(viewModel.tick().changes.isEmpty)  // once only
    }

    /// An item added already overdue asks for a tick at once, and that tick
    /// fires its reminder: before, only future deadlines were planned, so
    /// the reminder waited for a restart (or another item's deadline).
    @Test func anItemAddedOverdueFiresItsReminderAtOnce() throws {
        let yesterday = CalendarDay(clock.now.addingTimeInterval(-86_400), in: clock.todoClock.timeZone)
        let outcome = try viewModel.perform(.add(title: "rent", due: .day(yesterday)))
        #expect(outcome.nextEvent == clock.now)
        #expect(viewModel.main.rows.first?.overdue == true)
        #expect(alerts.isEmpty)

        let fired = viewModel.tick()
        #expect(fired.changes[.main]?.changedKeys.contains("alerts") == true)
        #expect(alerts.map(\.condition) == [.overdue])
        #expect(viewModel.nextEvent != clock.now)  // fired once: nothing more to do now
    }

    @Test func aShorterReminderAgeFromAReloadFiresAtTheNextTick() throws {
        let milk = try viewModel.add("milk")
        clock.advance(by: 2 * 3600)
        #expect(viewModel.tick().changes.isEmpty)
        viewModel.changeReminderAge(to: 3600)
        #expect(viewModel.reminderAge == 3600)
        _ = viewModel.tick()
        #expect(alerts.map(\.id) == [milk.rawValue])
        #expect(alerts.first?.message == "“milk” has waited for more than an hour")
    }

    @Test func doneOrDeletedClearsAndReopeningShowsWithoutFiringAgain() throws {
        let milk = try viewModel.add("milk")
        let bread = try viewModel.add("bread")
        clock.advance(by: 86_400)
        _ = viewModel.tick()
        #expect(alerts.map(\.id) == [milk.rawValue, bread.rawValue])

        _ = try viewModel.perform(.setDone(milk, true))
        _ = try viewModel.perform(.delete(bread))
        #expect(alerts.isEmpty)
        _ = try viewModel.perform(.setDone(milk, false))
        #expect(alerts.map(\.id) == [milk.rawValue])
        #expect(viewModel.tick().changes.isEmpty)
    }

    @Test func anOverdueItemRaisesAReminderAndItsRowTurnsOverdueOnTime() throws {
        let twoPM = clock.now.addingTimeInterval(2 * 3600)
        let rent = try viewModel.add("rent", due: .moment(twoPM))
        #expect(viewModel.nextEvent == twoPM)
        clock.advance(by: 2 * 3600)
        let outcome = viewModel.tick()
        #expect(alerts == [ReminderAlert(id: rent.rawValue, condition: .overdue, message: "“rent” is overdue (due today at 14:00)")])
        #expect(outcome.changes[.main]?.rowOperations.count == 1)
        #expect(viewModel.main.rows.first?.overdue == true)
    }

    @Test func firedRemindersSurviveARestartAndDoNotFireAgain() throws {
        try viewModel.add("milk")
        clock.advance(by: 86_400)
        _ = viewModel.tick()
        let restarted = TodoListViewModel(snapshot: viewModel.snapshot, clock: clock.todoClock, reminderAge: 86_400)
        #expect(restarted.main.properties.alerts == alerts)
        #expect(restarted.tick().changes.isEmpty)
    }

    @Test func theDayChangingRewordsTheRows() throws {
        try viewModel.add("milk")
        #expect(viewModel.main.rows.first?.createdText == "created today")
        clock.advance(by: 12 * 3600)  // Berlin midnight
        let outcome = viewModel.tick()
        guard case .reset(let rows)? = outcome.changes[.main]?.rowOperations.first else {
            Issue.record("no rows re-worded: \(outcome.changes)")
            return
        }
        #expect(rows.first?.createdText == "created yesterday")
    }

    @Test func theAgeIsConfigurableAndWorded() throws {
        let quick = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock, reminderAge: 2 * 3600)
        try quick.add("call back")
        clock.advance(by: 2 * 3600)
        _ = quick.tick()
        #expect(quick.main.properties.alerts.first?.message == "“call back” has waited for more than 2 hours")
    }
}
