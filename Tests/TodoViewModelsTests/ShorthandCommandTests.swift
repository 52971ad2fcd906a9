import Foundation
import Testing
import TodoModel
import TodoViewModels

/// `.addText` and `.modify`: shorthand read against the view model's own
/// clock and time zone, every field set as typed, and the row saying back
/// what was understood. (How the words split is ShorthandTests' subject in
/// TodoModelTests; here it is what the commands make of them.)
@Suite struct ShorthandCommandTests {
    /// Sunday 2026-11-22 12:00 in Berlin: `fri` is the 27th, `mon` the 23rd.
    let clock = TestClock()
    let viewModel: TodoListViewModel

    init() {
        viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
    }

    @Test func addSetsEveryFieldTheShorthandNames() throws {
        let outcome = try viewModel.perform(
            .addText("water +garden the plants project:home.garden pri:H due:fri wait:mon recur:weekly"))
        let id = TodoID(try #require(outcome.row).id)
        let item = try #require(viewModel.item(id))
        #expect(item.title == "water the plants")
        #expect(item.tags == ["garden"])
        #expect(item.project == "home.garden")
        #expect(item.priority == .high)
        #expect(item.due == .day(calendarDay(2026, 11, 27)))
        #expect(item.wait == .day(calendarDay(2026, 11, 23)))
        #expect(item.recurrence == .weekly)
        #expect(item.notes.isEmpty)
        // Set when it was made: nothing has changed since.
        #expect(item.fieldChangedAt.isEmpty)
        #expect(outcome.description == "add “water the plants”")
    }

    @Test func theRowSaysBackWhatWasUnderstood() throws {
        let row = try #require(
            try viewModel.perform(.addText("water +garden +Roses the plants project:home.garden pri:H due:fri wait:mon recur:weekly")).row)
        #expect(row.title == "water the plants")
        #expect(row.fieldsText == "H · home.garden · +garden +Roses · ↻ weekly")
        #expect(row.tags == ["garden", "Roses"])
        #expect(row.project == "home.garden")
        #expect(row.priority == "H")
        #expect(row.due == "2026-11-27")
        #expect(row.dueText == "due in 5 days")
        #expect(row.wait == "2026-11-23")
        #expect(row.waitText == "waiting until Monday 23 November")
        #expect(row.recurrence == "weekly")
        #expect(row.noteCount == 0)
        #expect(row.created == "2026-11-22T11:00:00Z")
        #expect(row.modified == "2026-11-22T11:00:00Z")
        #expect(row.completed == nil)
        #expect(!row.done && !row.overdue)
    }

    @Test func aDueTimeIsReadInTheClocksTimeZone() throws {
        let row = try #require(try viewModel.perform(.addText("call due:\"fri 18:00\"")).row)
        // 18:00 in Berlin in November (CET, UTC+1).
        #expect(row.due == "2026-11-27T17:00:00Z")
        #expect(row.dueText == "due in 5 days at 18:00")
    }

    /// The same instant is Sunday evening in Berlin and Monday morning in
    /// Tokyo: "tomorrow" is a different day in each.
    @Test func relativeDaysFollowTheInjectedZone() throws {
        let lateSunday = wallClock(2026, 11, 22, 23, 30)
        let berlin = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock(lateSunday).todoClock)
        let tokyo = TodoListViewModel(
            snapshot: ListSnapshot(), clock: TestClock(lateSunday, timeZone: TimeZone(identifier: "Asia/Tokyo")!).todoClock)
        #expect(try berlin.perform(.addText("x due:tomorrow")).row?.due == "2026-11-23")
        #expect(try tokyo.perform(.addText("x due:tomorrow")).row?.due == "2026-11-24")
    }

    @Test func anExplicitDueWinsOverTheOneInTheText() throws {
        let row = try #require(try viewModel.perform(.addText("x due:fri", due: "mon")).row)
        #expect(row.due == "2026-11-23")
    }

    /// `.addTitled` is for a title that must not be read as shorthand.
    @Test func addTitledTakesTheTitleAsItIs() throws {
        let row = try #require(try viewModel.perform(.addTitled("+1 for pri:H", dueText: "fri")).row)
        #expect(row.title == "+1 for pri:H")
        #expect(row.tags == [] && row.priority == nil)
        #expect(row.due == "2026-11-27")
        #expect(throws: TodoError.self) { try viewModel.perform(.addTitled("x", dueText: "someday")) }
    }

    @Test func wordsAfterDoubleDashStayInTheTitle() throws {
        let id = try viewModel.add(shorthand: "vote +poll -- +1 for pri:H")
        let item = try #require(viewModel.item(id))
        #expect(item.title == "vote +1 for pri:H")
        #expect(item.tags == ["poll"])
        #expect(item.priority == nil)
    }

    @Test func aMinusWordIsTitleTextInAnAdd() throws {
        let id = try viewModel.add(shorthand: "-20% sale")
        #expect(viewModel.item(id)?.title == "-20% sale")
        #expect(viewModel.item(id)?.tags == [])
    }

    @Test func modifyAddsRemovesAndSetsFieldsAndKeepsTheTitle() throws {
        let id = try viewModel.add(shorthand: "fix the fence +work pri:H")
        clock.advance(by: 60)
        let outcome = try viewModel.perform(.modify(id, "+home -work pri:L due:fri"))
        let item = try #require(viewModel.item(id))
        #expect(item.title == "fix the fence")
        #expect(item.tags == ["home"])
        #expect(item.priority == .low)
        #expect(item.due == .day(calendarDay(2026, 11, 27)))
        #expect(item.updatedAt == clock.now)
        #expect(item.fieldChangedAt == [.tags: clock.now, .priority: clock.now, .due: clock.now])
        #expect(outcome.description == "modify “fix the fence”")
        #expect(outcome.row?.fieldsText == "L · +home")
    }

    @Test func modifyWithTitleWordsRetitles() throws {
        let id = try viewModel.add(shorthand: "fix fence")
        _ = try viewModel.perform(.modify(id, "mend the fence +home"))
        #expect(viewModel.item(id)?.title == "mend the fence")
        #expect(viewModel.item(id)?.fieldChangedAt[.title] == clock.now)
    }

    @Test(arguments: ["priority:", "pri:none", "PRIORITY:"])
    func anEmptyPriorityClears(text: String) throws {
        let id = try viewModel.add(shorthand: "x pri:M")
        _ = try viewModel.perform(.modify(id, text))
        #expect(viewModel.item(id)?.priority == nil)
        #expect(viewModel.main.rows[0].priority == nil)
    }

    @Test func emptyValuesClearEveryOtherFieldToo() throws {
        let id = try viewModel.add(shorthand: "x project:home due:fri wait:mon")
        _ = try viewModel.perform(.modify(id, "project: due: wait:"))
        let item = try #require(viewModel.item(id))
        #expect(item.project == nil)
        #expect(item.due == nil)
        #expect(item.wait == nil)
    }

    @Test func tagsDedupeIgnoringCaseAndKeepTheFirstSpelling() throws {
        let id = try viewModel.add(shorthand: "x +Home +home +HOME +work")
        #expect(viewModel.item(id)?.tags == ["Home", "work"])
        // Adding it again in another case changes nothing: no step, no change set.
        let again = try viewModel.perform(.modify(id, "+home"))
        #expect(again.description == nil)
        #expect(again.changes.isEmpty)
        #expect(viewModel.snapshot.history.undoSteps.count == 1)
        // Removing it in any case removes it.
        _ = try viewModel.perform(.modify(id, "-HOME"))
        #expect(viewModel.item(id)?.tags == ["work"])
    }

    @Test func anInvalidTagIsAnErrorAtItsPosition() {
        let expected = ShorthandError(position: 8, reason: .invalidTag("+bad!tag", .invalidCharacter("!", offset: 3)))
        #expect(throws: TodoError.invalidShorthand(expected)) { try viewModel.perform(.addText("buy +bad!tag")) }
    }

    @Test func anInvalidPriorityIsAnErrorAtItsValue() {
        let expected = ShorthandError(position: 6, reason: .invalidPriority("X"))
        #expect(throws: TodoError.invalidShorthand(expected)) { try viewModel.perform(.addText("x pri:X")) }
    }

    @Test func anAddWithoutTitleWordsIsAnErrorAtTheEnd() {
        let expected = ShorthandError(position: 11, reason: .missingTitle)
        #expect(throws: TodoError.invalidShorthand(expected)) { try viewModel.perform(.addText("+home pri:H")) }
    }

    @Test func anUnclosedQuoteIsAnErrorAtTheEnd() throws {
        let id = try viewModel.add("x")
        let expected = ShorthandError(position: 13, reason: .unterminatedQuote)
        #expect(throws: TodoError.invalidShorthand(expected)) { try viewModel.perform(.modify(id, "due:\"next fri")) }
    }

    @Test func anUnreadableDateNamesItsFieldTextWordAndPosition() throws {
        let due = #expect(throws: TodoError.self) { try viewModel.perform(.addText("x due:someday")) }
        guard case .inWord(ShorthandWord("due:someday", at: 2), .invalidDate(.due, "someday", let reason))? = due else {
            Issue.record("expected an invalid due date, got \(String(describing: due))")
            return
        }
        #expect(reason.message.contains("\"someday\" is not a date"))
        let wait = #expect(throws: TodoError.self) { try viewModel.perform(.addText("x wait:\"31 feb\"")) }
        guard case .inWord(ShorthandWord("wait:\"31 feb\"", at: 2), .invalidDate(.wait, "31 feb", _))? = wait else {
            Issue.record("expected an invalid wait date, got \(String(describing: wait))")
            return
        }
        // Of two words for one field, the one that cannot be read is named.
        let second = #expect(throws: TodoError.self) { try viewModel.perform(.addText("x due:fri due:someday")) }
        guard case .inWord(ShorthandWord("due:someday", at: 10), .invalidDate(.due, "someday", _))? = second else {
            Issue.record("expected the second due word, got \(String(describing: second))")
            return
        }
    }

    @Test func anUnreadableRepetitionIsAnInvalidRecurrence() {
        let error = #expect(throws: TodoError.self) { try viewModel.perform(.addText("x recur:sometimes")) }
        guard case .inWord(ShorthandWord("recur:sometimes", at: 2), .invalidRecurrence(let reason))? = error else {
            Issue.record("expected an invalid recurrence, got \(String(describing: error))")
            return
        }
        #expect(reason.message.contains("\"sometimes\" is not a repetition"))
    }

    @Test func aRefusedCommandChangesNothing() throws {
        let id = try viewModel.add(shorthand: "x +home")
        let before = viewModel.snapshot
        let main = viewModel.main
        for text in ["+bad!tag", "due:someday", "recur:often", "pri:Q", "project:a..b"] {
            #expect(throws: TodoError.self) { try viewModel.perform(.modify(id, text)) }
            #expect(throws: TodoError.self) { try viewModel.perform(.addText("y " + text)) }
        }
        #expect(viewModel.snapshot == before)
        #expect(viewModel.main == main)
    }

    @Test func aRepetitionWithoutADueDateMakesTheItemDueToday() throws {
        let added = try viewModel.add(shorthand: "stretch recur:daily")
        #expect(viewModel.item(added)?.due == .day(calendarDay(2026, 11, 22)))

        let undated = try viewModel.add(shorthand: "water plants")
        _ = try viewModel.perform(.modify(undated, "recur:weekly"))
        #expect(viewModel.item(undated)?.due == .day(calendarDay(2026, 11, 22)))
        #expect(viewModel.item(undated)?.recurrence == .weekly)

        // A due date it has, or is given in the same text, is kept.
        let dated = try viewModel.add(shorthand: "pay rent due:fri")
        _ = try viewModel.perform(.modify(dated, "recur:monthly"))
        #expect(viewModel.item(dated)?.due == .day(calendarDay(2026, 11, 27)))
        let both = try viewModel.add(shorthand: "review recur:weekly due:mon")
        #expect(viewModel.item(both)?.due == .day(calendarDay(2026, 11, 23)))
    }
}
