import Foundation
import Testing
import TodoModel
import TodoViewModels
import TodoViewState

/// What belongs on the desktop (`desktopReminders`), decided by the view
/// model on a test clock: "due soon" before a due time, snoozes that end and
/// survive restarts, dismissals, quiet hours and the on/off setting.
@Suite struct DesktopReminderTests {
    let clock = TestClock()  // Sunday 2026-11-22 12:00 in Berlin

    private func makeViewModel(
        _ snapshot: ListSnapshot = ListSnapshot(), settings: DesktopReminderSettings = DesktopReminderSettings(),
        lead: TimeInterval = 15 * 60
    ) -> TodoListViewModel {
        TodoListViewModel(snapshot: snapshot, clock: clock.todoClock, reminderAge: 86_400, desktop: settings, dueSoonLead: lead)
    }

    private func desktop(_ viewModel: TodoListViewModel) -> [DesktopReminder] { viewModel.main.properties.desktopReminders }

    /// An item due yesterday, its overdue reminder fired.
    private func overdueItem(_ viewModel: TodoListViewModel, _ title: String = "pay rent") throws -> TodoID {
        let id = try viewModel.add(title, due: .day(calendarDay(2026, 11, 21)))
        _ = viewModel.tick()
        return id
    }

    @Test func anItemDueAtATimeIsDueSoonTheLeadBefore() throws {
        let viewModel = makeViewModel()
        let call = try viewModel.add(shorthand: "call mum pro:family")
        _ = try viewModel.perform(.setDue(call, .moment(wallClock(2026, 11, 22, 13))))
        #expect(viewModel.nextEvent == wallClock(2026, 11, 22, 12, 45))
        clock.set(to: wallClock(2026, 11, 22, 12, 44))
        #expect(viewModel.tick().write == nil)
        #expect(desktop(viewModel).isEmpty)

        clock.set(to: wallClock(2026, 11, 22, 12, 45))
        let fired = viewModel.tick()
        #expect(fired.changes[.main]?.changedKeys.contains("desktopReminders") == true)
        #expect(fired.write?.firedReminders == [ReminderKey(itemID: call, condition: .dueSoon)])
        #expect(
            desktop(viewModel) == [
                DesktopReminder(
                    id: call.rawValue, condition: .dueSoon, summary: "call mum", body: "due today at 13:00 · project family",
                    urgency: .normal)
            ])
        #expect(viewModel.main.properties.alerts.map(\.message) == ["“call mum” is due soon (due today at 13:00)"])

        clock.set(to: wallClock(2026, 11, 22, 13))
        _ = viewModel.tick()
        #expect(desktop(viewModel).map(\.condition) == [.overdue, .dueSoon])
        #expect(desktop(viewModel).first?.urgency == .critical)
    }

    @Test func dueDaysAndLateItemsAndNoLeadRaiseNoDueSoonReminder() throws {
        let viewModel = makeViewModel()
        try viewModel.add("bins", due: .day(calendarDay(2026, 11, 22)))  // a day: overdue says it at its end
        try viewModel.add("late", due: .moment(wallClock(2026, 11, 22, 11)))  // already past its time
        _ = viewModel.tick()
        #expect(viewModel.main.properties.alerts.map(\.condition) == [.overdue])

        let withoutLead = makeViewModel(lead: 0)
        try withoutLead.add("soon", due: .moment(wallClock(2026, 11, 22, 12, 5)))
        _ = withoutLead.tick()
        #expect(withoutLead.main.properties.alerts.isEmpty)
    }

    @Test func aSnoozedReminderLeavesTheDesktopAndComesBackWhenTheSnoozeEnds() throws {
        let viewModel = makeViewModel()
        var stored = ListSnapshot()
        let rent = try overdueItem(viewModel)
        #expect(desktop(viewModel).map(\.id) == [rent.rawValue])

        let snoozed = try viewModel.snoozeReminder(rent, .overdue, for: 3600)
        #expect(snoozed.changes[.main]?.changedKeys == ["desktopReminders"])
        #expect(desktop(viewModel).isEmpty)
        #expect(viewModel.main.properties.alerts.count == 1)  // still raised on the list
        #expect(snoozed.nextEvent == clock.now.addingTimeInterval(3600))
        stored.apply(try #require(snoozed.write))
        #expect(stored.desktopReminders == viewModel.snapshot.desktopReminders)

        clock.advance(by: 3599)
        #expect(viewModel.tick().changes.isEmpty)
        clock.advance(by: 1)
        #expect(viewModel.tick().changes[.main]?.changedKeys.contains("desktopReminders") == true)
        #expect(desktop(viewModel).map(\.id) == [rent.rawValue])
    }

    @Test func aSnoozeSurvivesARestart() throws {
        let viewModel = makeViewModel()
        let rent = try overdueItem(viewModel)
        _ = try viewModel.snoozeReminder(rent, .overdue, untilText: "tomorrow 9am")
        #expect(viewModel.snapshot.desktopReminders[ReminderKey(itemID: rent, condition: .overdue)]?.snoozedUntil
            == wallClock(2026, 11, 23, 9))

        clock.advance(by: 3600)
        let restarted = makeViewModel(viewModel.snapshot)
        #expect(desktop(restarted).isEmpty)
        #expect(restarted.nextEvent! <= wallClock(2026, 11, 23, 0))  // midnight first, then 9:00
        clock.set(to: wallClock(2026, 11, 23, 9))
        _ = restarted.tick()
        #expect(desktop(restarted).map(\.id) == [rent.rawValue])
    }

    @Test func aDismissedReminderStaysOffTheDesktopUntilSnoozedAgain() throws {
        let viewModel = makeViewModel()
        let rent = try overdueItem(viewModel)
        let dismissed = try viewModel.dismissReminder(rent, .overdue)
        #expect(dismissed.write?.desktopReminders == [ReminderKey(itemID: rent, condition: .overdue): DesktopReminderState(dismissed: true)])
        #expect(desktop(viewModel).isEmpty)
        clock.advance(by: 3600)
        _ = viewModel.tick()
        #expect(desktop(viewModel).isEmpty)
        #expect(makeViewModel(viewModel.snapshot).main.properties.desktopReminders.isEmpty)

        _ = try viewModel.snoozeReminder(rent, .overdue, for: 60)
        clock.advance(by: 60)
        _ = viewModel.tick()
        #expect(desktop(viewModel).map(\.id) == [rent.rawValue])
    }

    @Test func quietHoursHoldRemindersBackUntilTheyEnd() throws {
        let viewModel = makeViewModel()
        let rent = try overdueItem(viewModel)
        let quiet = DesktopReminderSettings(quietHours: QuietHours(text: "11:30-13:00")!)
        let change = viewModel.changeDesktopSettings(quiet, dueSoonLead: 15 * 60)
        #expect(change.changes[.main]?.changedKeys == ["desktopReminders"])
        #expect(desktop(viewModel).isEmpty)
        #expect(viewModel.nextEvent == wallClock(2026, 11, 22, 13))

        clock.set(to: wallClock(2026, 11, 22, 13))
        _ = viewModel.tick()
        #expect(desktop(viewModel).map(\.id) == [rent.rawValue])
    }

    @Test func turnedOffNothingGoesToTheDesktopButTheListKeepsItsReminders() throws {
        let viewModel = makeViewModel(settings: DesktopReminderSettings(enabled: false))
        _ = try overdueItem(viewModel)
        #expect(desktop(viewModel).isEmpty)
        #expect(viewModel.main.properties.alertCount == 1)
        _ = viewModel.changeDesktopSettings(DesktopReminderSettings(enabled: true), dueSoonLead: 0)
        #expect(desktop(viewModel).count == 1)
    }

    @Test func doneItemsLeaveTheDesktop() throws {
        let viewModel = makeViewModel()
        let rent = try overdueItem(viewModel)
        let done = try viewModel.perform(.setDone(rent, true))
        #expect(done.changes[.main]?.changedKeys.contains("desktopReminders") == true)
        #expect(desktop(viewModel).isEmpty)
        _ = try viewModel.perform(.undo)
        #expect(desktop(viewModel).map(\.id) == [rent.rawValue])
    }

    @Test func urgencyFollowsPriorityAndOverdue() throws {
        let viewModel = makeViewModel()
        try viewModel.add(shorthand: "high pri:H")
        try viewModel.add(shorthand: "low pri:L")
        try viewModel.add(shorthand: "plain")
        clock.advance(by: 86_400)
        _ = viewModel.tick()
        #expect(desktop(viewModel).map(\.urgency) == [.critical, .low, .normal])
        #expect(desktop(viewModel).last?.body == "waiting for more than a day")
    }

    @Test func aFailedWriteTakesTheSnoozeBack() throws {
        let viewModel = makeViewModel()
        let rent = try overdueItem(viewModel)
        let snoozed = try viewModel.snoozeReminder(rent, .overdue, for: 3600)
        viewModel.revert(try #require(snoozed.applied))
        #expect(desktop(viewModel).map(\.id) == [rent.rawValue])
        #expect(viewModel.snapshot.desktopReminders.isEmpty)
    }

    @Test func onlyItemsThatExistCanBeSnoozedOrDismissed() {
        let viewModel = makeViewModel()
        #expect(throws: TodoError.notFound(TodoID(9))) { try viewModel.snoozeReminder(TodoID(9), .overdue, for: 60) }
        #expect(throws: TodoError.notFound(TodoID(9))) { try viewModel.dismissReminder(TodoID(9), .waiting) }
    }
}
