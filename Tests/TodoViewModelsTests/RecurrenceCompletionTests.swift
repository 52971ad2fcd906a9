import Foundation
import Testing
import TodoModel
import TodoViewModels

/// Completing a recurring item brings it back: one new item, due one period
/// later, made in the same undo step as the completion, so one undo takes
/// back both and one redo brings back both.
@Suite struct RecurrenceCompletionTests {
    /// Completes `id` and returns the occurrence it created, checking that
    /// it created exactly one, in one undo step.
    private func complete(_ id: TodoID, in viewModel: TodoListViewModel) throws -> TodoItem {
        let before = viewModel.snapshot
        let outcome = try viewModel.perform(.setDone(id, true))
        let after = viewModel.snapshot
        #expect(after.items.count == before.items.count + 1)
        #expect(after.history.undoSteps.count == before.history.undoSteps.count + 1)
        #expect(outcome.write?.changes.count == 2)
        #expect(viewModel.item(id)?.isDone == true)
        let new = try #require(after.items.first { $0.id == before.nextID })
        #expect(after.nextID == TodoID(before.nextID.rawValue + 1))
        return new
    }

    @Test func aWeeklyItemComesBackAWeekLaterWithTheSameFields() throws {
        let clock = TestClock()  // Sunday 22 November 2026
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
        let id = try viewModel.add(shorthand: "water plants +garden project:home pri:M due:fri wait:thu recur:weekly")
        _ = try viewModel.perform(.addNote(id, "the ferns twice"))
        let original = try #require(viewModel.item(id))

        let next = try complete(id, in: viewModel)
        #expect(next.title == original.title)
        #expect(next.tags == original.tags)
        #expect(next.project == original.project)
        #expect(next.priority == original.priority)
        #expect(next.notes == original.notes)
        #expect(next.recurrence == original.recurrence)
        #expect(next.due == .day(calendarDay(2026, 12, 4)))
        // The wait date keeps its day before the due date.
        #expect(next.wait == .day(calendarDay(2026, 12, 3)))
        #expect(!next.isDone)
        #expect(next.createdAt == clock.now)
        #expect(viewModel.main.properties.undoText == "Undo complete “water plants” (next: 2, due Friday 4 December)")
    }

    /// What other programs keep with the item (an alarm, a user-defined
    /// attribute) belongs to the task, as its notes do: the next occurrence
    /// has it too.
    @Test func theNextOccurrenceKeepsWhatOtherProgramsKeep() throws {
        let clock = TestClock()
        let foreign = ForeignFields(taskwarrior: ["estimate": "3"], icalendar: ["BEGIN:VALARM", "TRIGGER:-PT15M", "END:VALARM"])
        let item = TodoItem(
            id: TodoID(1), title: "water plants", createdAt: clock.now, due: .day(calendarDay(2026, 11, 27)),
            recurrence: .weekly, foreign: foreign)
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(items: [item], nextID: TodoID(2)), clock: clock.todoClock)
        #expect(try complete(TodoID(1), in: viewModel).foreign == foreign)
        // `todoctl show` says what is kept, so a person sees it is there.
        let lines = try viewModel.details(of: TodoID(1)).lines
        #expect(lines.contains("kept        for Taskwarrior: estimate 3"), "\(lines)")
        #expect(lines.contains("kept        for calendars: VALARM"), "\(lines)")
    }

    @Test func aPlainItemCreatesNothingAndReopeningTakesBackTheOccurrence() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let plain = try viewModel.add(shorthand: "plain due:fri")
        _ = try viewModel.perform(.setDone(plain, true))
        #expect(viewModel.snapshot.items.count == 1)
        let weekly = try viewModel.add(shorthand: "weekly due:fri recur:weekly")
        _ = try viewModel.perform(.setDone(weekly, true))
        #expect(viewModel.snapshot.items.count == 3)
        // Done, undone, done leaves one next occurrence, not two.
        let reopened = try viewModel.perform(.setDone(weekly, false))
        #expect(reopened.description?.hasSuffix("(its next occurrence 3 is gone)") == true)
        #expect(viewModel.snapshot.items.count == 2)
        #expect(try viewModel.perform(.setDone(weekly, false)).write == nil)
        _ = try viewModel.perform(.setDone(weekly, true))
        #expect(viewModel.snapshot.items.count(where: { $0.title == "weekly" && !$0.isDone }) == 1)
    }

    @Test func reopeningKeepsAnOccurrenceThatWasChanged() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let weekly = try viewModel.add(shorthand: "weekly due:fri recur:weekly")
        _ = try viewModel.perform(.setDone(weekly, true))
        let next = try #require(viewModel.snapshot.items.first { $0.id != weekly })
        _ = try viewModel.perform(.modify(next.id, "+kept"))
        _ = try viewModel.perform(.setDone(weekly, false))
        #expect(viewModel.snapshot.items.count == 2)
    }

    /// A recurring item counts from its due date, so it always has one:
    /// clearing it, by any command, makes it due today, and completing the
    /// item still brings it back.
    @Test(arguments: [TodoCommand.setDueText(TodoID(1), nil), .setDue(TodoID(1), nil), .modify(TodoID(1), "due:")])
    func clearingARecurringItemsDueDateMakesItDueToday(clearing: TodoCommand) throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let id = try viewModel.add(shorthand: "water plants due:fri recur:weekly")
        _ = try viewModel.perform(clearing)
        #expect(viewModel.item(id)?.due == .day(calendarDay(2026, 11, 22)))
        #expect(try complete(id, in: viewModel).due == .day(calendarDay(2026, 11, 29)))
        // A plain item's due date is cleared as asked.
        let plain = try viewModel.add(shorthand: "plain due:fri")
        _ = try viewModel.perform(.setDueText(plain, nil))
        #expect(viewModel.item(plain)?.due == nil)
    }

    /// A repeating item with a wait and no due date starts where its wait
    /// ends: due that day, so it does not appear from waiting already overdue.
    @Test func aRecurringItemWithOnlyAWaitIsDueTheDayItsWaitEnds() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)  // Sunday 22 November 2026
        let id = try viewModel.add(shorthand: "water plants recur:weekly wait:mon")
        #expect(viewModel.item(id)?.wait == .day(calendarDay(2026, 11, 23)))
        #expect(viewModel.item(id)?.due == .day(calendarDay(2026, 11, 23)))
        let next = try complete(id, in: viewModel)
        #expect(next.due == .day(calendarDay(2026, 11, 30)))
        #expect(next.wait == .day(calendarDay(2026, 11, 30)))

        // Given a repetition later, by modify, it counts from its wait too.
        let later = try viewModel.add(shorthand: "descale the kettle wait:2026-12-02")
        _ = try viewModel.perform(.modify(later, "recur:monthly"))
        #expect(viewModel.item(later)?.due == .day(calendarDay(2026, 12, 2)))
        // A wait at a time of day makes it due that day.
        let timed = try viewModel.add(shorthand: "call home recur:weekly wait:2026-11-25T18:00")
        #expect(viewModel.item(timed)?.due == .day(calendarDay(2026, 11, 25)))
        // Clearing the due date, by any command, comes back to the wait's day.
        for clearing in [TodoCommand.setDueText(timed, nil), .setDue(timed, nil), .modify(timed, "due:")] {
            _ = try viewModel.perform(.setDueText(timed, "2026-12-24"))
            _ = try viewModel.perform(clearing)
            #expect(viewModel.item(timed)?.due == .day(calendarDay(2026, 11, 25)), "\(clearing)")
        }
    }

    @Test func undoRemovesTheOccurrenceAndReopensAndRedoBringsBothBack() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let id = try viewModel.add(shorthand: "standup due:mon recur:weekdays")
        let beforeCompletion = viewModel.snapshot.items
        let occurrence = try complete(id, in: viewModel)
        #expect(occurrence.due == .day(calendarDay(2026, 11, 24)))
        let afterCompletion = viewModel.snapshot.items

        var main = viewModel.main
        let undo = try viewModel.perform(.undo)
        #expect(viewModel.snapshot.items == beforeCompletion)
        #expect(viewModel.item(occurrence.id) == nil)
        #expect(viewModel.item(id)?.isDone == false)
        main.apply(try #require(undo.changes[.main]))
        #expect(main == viewModel.main)

        let redo = try viewModel.perform(.redo)
        #expect(viewModel.snapshot.items == afterCompletion)
        main.apply(try #require(redo.changes[.main]))
        #expect(main == viewModel.main)
        #expect(main.rows.map(\.id) == [id.rawValue, occurrence.id.rawValue])
    }

    /// Monthly from the 31st: clamped to the end of February, then back to
    /// the 31st in March, because the repetition remembers its day.
    @Test func aMonthlyItemFromThe31stReturnsToThe31st() throws {
        let clock = TestClock(wallClock(2027, 1, 31, 10))
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
        let january = try viewModel.add(shorthand: "pay rent due:today recur:monthly")
        let february = try complete(january, in: viewModel)
        #expect(february.due == .day(calendarDay(2027, 2, 28)))

        clock.set(to: wallClock(2027, 2, 28, 10))
        let march = try complete(february.id, in: viewModel)
        #expect(march.due == .day(calendarDay(2027, 3, 31)))
        #expect(march.recurrence == february.recurrence)
    }

    @Test func fromCompletionCountsFromTheDayItWasDone() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        // Both were due on Monday the 16th and are done on Sunday the 22nd.
        let fromDue = try viewModel.add(shorthand: "weekly review due:2026-11-16 recur:weekly")
        let fromDone = try viewModel.add(shorthand: "water due:2026-11-16 recur:\"weekly from completion\"")
        #expect(try complete(fromDue, in: viewModel).due == .day(calendarDay(2026, 11, 23)))
        #expect(try complete(fromDone, in: viewModel).due == .day(calendarDay(2026, 11, 29)))
        let every3 = try viewModel.add(shorthand: "descale due:2026-11-01 recur:\"every 3 days from completion\"")
        #expect(try complete(every3, in: viewModel).due == .day(calendarDay(2026, 11, 25)))
    }

    /// Toggle-all is a switch for the whole list: it adds no occurrences,
    /// so pressing it again reopens everything it closed.
    @Test func toggleAllAddsNoOccurrencesAndReopensAll() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let daily = try viewModel.add(shorthand: "stretch recur:daily")
        try viewModel.add("plain")
        let weekly = try viewModel.add(shorthand: "review due:fri recur:weekly")
        var main = viewModel.main

        let outcome = try viewModel.perform(.toggleAll)
        main.apply(try #require(outcome.changes[.main]))
        #expect(main == viewModel.main)
        #expect(viewModel.snapshot.items.count == 3)
        #expect(viewModel.main.properties.allDone)
        #expect(viewModel.item(daily)?.isDone == true && viewModel.item(weekly)?.isDone == true)
        _ = try viewModel.perform(.toggleAll)
        #expect(viewModel.snapshot.items.allSatisfy { !$0.isDone })
        _ = try viewModel.perform(.undo)
        #expect(viewModel.snapshot.items.count == 3)
        #expect(viewModel.snapshot.items.allSatisfy { $0.isDone })
    }

    @Test func aTransactionCompletingTwoGivesEachOccurrenceItsOwnId() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let a = try viewModel.add(shorthand: "a recur:daily")
        let b = try viewModel.add(shorthand: "b recur:weekly")
        _ = try viewModel.perform(transaction: [.setDone(a, true), .setDone(b, true)])
        let titles = viewModel.snapshot.items.map { "\($0.id) \($0.title) \($0.isDone)" }
        #expect(titles == ["1 a true", "2 b true", "3 a false", "4 b false"])
        _ = try viewModel.perform(.undo)
        #expect(viewModel.snapshot.items.count == 2)
    }

    /// Europe/Berlin moves to summer time on Sunday 28 March 2027: a moment
    /// due at 09:00 is due at 09:00 after it too, an hour less later.
    @Test(arguments: [("daily", 27, 28), ("weekly", 25, 1)])
    func aMomentKeepsItsWallClockTimeAcrossADSTChange(recurrence: String, dueDay: Int, nextDay: Int) throws {
        let clock = TestClock(wallClock(2027, 3, dueDay, 8))
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
        let added = try #require(try viewModel.perform(.addText("standup due:\"today 09:00\" recur:\(recurrence)")).row)
        let next = try complete(TodoID(added.id), in: viewModel)
        let nextMonth = nextDay < dueDay ? 4 : 3
        #expect(next.due == .moment(wallClock(2027, nextMonth, nextDay, 9)))
        guard case .moment(let moment)? = next.due else { return }
        #expect(TimeOfDay(moment, in: .berlin) == TimeOfDay(hour: 9))
        // In UTC it moved: 08:00Z in winter, 07:00Z in summer.
        #expect(added.due == "2027-03-\(dueDay)T08:00:00Z")
        #expect(viewModel.main.rows.last?.due == String(format: "2027-%02d-%02dT07:00:00Z", nextMonth, nextDay))
    }
}
