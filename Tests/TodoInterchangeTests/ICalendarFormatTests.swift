import Foundation
import Testing
import TodoModel

@testable import TodoInterchange

@Suite struct ICalendarFormatTests {
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:event-1\r
        SUMMARY:not a to-do\r
        END:VEVENT\r
        BEGIN:VTODO\r
        UID:todo-1@example.com\r
        SUMMARY:Renew passport\\, and visa\\; urgently\r
        DUE;TZID=America/New_York:20261201T090000\r
        PRIORITY:2\r
        CATEGORIES:travel,admin\r
        DESCRIPTION:bring photos\\nand the old one\r
        RRULE:FREQ=WEEKLY;INTERVAL=2\r
        CREATED:20261120T080000Z\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:alarm text is not a note\r
        END:VALARM\r
        END:VTODO\r
        BEGIN:VTODO\r
        UID:todo-2@example.com\r
        SUMMARY:A very long summary that an iCalendar writer folds because a content \r
         line may be at most seventy-five octets long: ünïcödé too\r
        DUE;VALUE=DATE:20261224\r
        STATUS:COMPLETED\r
        COMPLETED:20261121T100000Z\r
        RRULE:FREQ=MONTHLY;COUNT=3\r
        END:VTODO\r
        BEGIN:VTODO\r
        UID:todo-3@example.com\r
        SUMMARY:called off\r
        STATUS:CANCELLED\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    @Test func readsToDosAndPassesOverTheRest() throws {
        let batch = try ICalendarFormat.read(Self.calendar, timeZone: .berlin)
        #expect(batch.items.count == 2)
        #expect(batch.skipped.map(\.reason) == ["cancelled"])
        let passport = batch.items[0]
        #expect(passport.identity == .external("todo-1@example.com"))
        #expect(passport.title == "Renew passport, and visa; urgently")
        #expect(passport.due == .moment(utc(2026, 12, 1, 14)))
        #expect(passport.priority == .high)
        #expect(passport.tags == ["travel", "admin"])
        #expect(passport.notes.map(\.text) == ["bring photos", "and the old one"])
        #expect(passport.recurrence?.text == "every 2 weeks")
        #expect(passport.createdAt == utc(2026, 11, 20, 8))
        #expect(passport.source == "to-do 1 (line 8)")
    }

    @Test func foldedLinesDatesAndRulesTodoCannotKeep() throws {
        let done = try ICalendarFormat.read(Self.calendar, timeZone: .berlin).items[1]
        #expect(done.title.hasSuffix("seventy-five octets long: ünïcödé too"))
        #expect(done.title.contains("content line"))
        #expect(done.due == .day(CalendarDay(year: 2026, month: 12, day: 24)))
        #expect(done.isDone)
        #expect(done.completedAt == utc(2026, 11, 21, 10))
        #expect(done.recurrence == nil)
        #expect(done.remarks == ["repetition FREQ=MONTHLY;COUNT=3 not used: todod has no COUNT", "kept as they came for calendars, unused by todod: RRULE"])
        #expect(done.foreign.icalendar == ["RRULE:FREQ=MONTHLY;COUNT=3"])
    }

    @Test func badInputNamesTheToDo() {
        #expect(throws: ImportProblem(location: "to-do 1 (line 1)", message: "it has no UID")) {
            try ICalendarFormat.read("BEGIN:VTODO\nSUMMARY:x\nEND:VTODO\n", timeZone: .berlin)
        }
        #expect(throws: ImportProblem(location: "to-do 1 (line 1), line 4", message: "DUE 2026120: not an iCalendar date (20240115 or 20240115T093000[Z])")) {
            try ICalendarFormat.read("BEGIN:VTODO\nUID:a\nSUMMARY:x\nDUE:2026120\nEND:VTODO\n", timeZone: .berlin)
        }
        #expect(throws: ImportProblem(location: "line 2", message: "BEGIN:VTODO has no END:VTODO")) {
            try ICalendarFormat.read("\nBEGIN:VTODO\nUID:a\n", timeZone: .berlin)
        }
        #expect(throws: ImportProblem(location: "to-do 2 (line 5)", message: "UID a is also the UID of to-do 1 (line 1)")) {
            try ICalendarFormat.read("BEGIN:VTODO\nUID:a\nSUMMARY:x\nEND:VTODO\nBEGIN:VTODO\nUID:a\nSUMMARY:y\nEND:VTODO\n", timeZone: .berlin)
        }
    }

    @Test func weekdaysAreMondayToFriday() {
        #expect((try? ICalendarRecurrence.read("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", due: nil).get()) == .weekdays)
        #expect((try? ICalendarRecurrence.read("FREQ=WEEKLY;BYDAY=MO,WE", due: nil).get()) == nil)
    }

    /// A month-end anchor is written as the last of the days from the 28th
    /// to it, and read back as that anchor, also from a due date it clamps.
    @Test func monthEndRepetitionsAreTheLastOfTheDaysUpToTheirAnchor() throws {
        func day(_ y: Int, _ m: Int, _ d: Int) -> CalendarDay { CalendarDay(year: y, month: m, day: d) }
        let on31 = Recurrence.monthly.anchored(to: .day(day(2027, 1, 31)), in: .berlin)
        #expect(ICalendarRecurrence.rule(of: on31, due: day(2027, 1, 31)) == "FREQ=MONTHLY;BYMONTHDAY=-1")
        let on30 = try Recurrence(.every(2, .month)).anchored(to: .day(day(2027, 1, 30)), in: .berlin)
        #expect(ICalendarRecurrence.rule(of: on30, due: day(2027, 1, 30)) == "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=28,29,30;BYSETPOS=-1")
        let leapDay = Recurrence.yearly.anchored(to: .day(day(2028, 2, 29)), in: .berlin)
        #expect(ICalendarRecurrence.rule(of: leapDay, due: day(2028, 2, 29)) == "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1")
        #expect(ICalendarRecurrence.rule(of: .monthly, due: day(2027, 1, 15)) == "FREQ=MONTHLY")

        #expect(try ICalendarRecurrence.read("FREQ=MONTHLY;BYMONTHDAY=-1", due: day(2027, 2, 28)).get().anchorDay == 31)
        #expect(try ICalendarRecurrence.read("FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=28,29,30;BYSETPOS=-1", due: day(2027, 1, 30)).get() == on30)
        #expect(try ICalendarRecurrence.read("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1", due: day(2027, 2, 28)).get().anchorDay == 29)
        // Not the due date's day, nor the last of the days up to the anchor.
        #expect((try? ICalendarRecurrence.read("FREQ=MONTHLY;BYMONTHDAY=-1", due: day(2027, 1, 30)).get()) == nil)
        #expect((try? ICalendarRecurrence.read("FREQ=MONTHLY;BYMONTHDAY=1,15;BYSETPOS=-1", due: day(2027, 1, 15)).get()) == nil)

        // A round trip keeps the anchor, though the due date is clamped.
        let item = TodoItem(id: TodoID(1), title: "pay rent", createdAt: Date(timeIntervalSince1970: 0),
            due: .day(day(2027, 2, 28)), recurrence: on31)
        let exported = ICalendarFormat.header(version: "test") + ICalendarFormat.entry(item, listID: "l", now: Date(timeIntervalSince1970: 0), timeZone: .berlin) + ICalendarFormat.footer
        #expect(exported.contains("DTSTART;VALUE=DATE:20270228\r\n"))
        let read = try #require(try ICalendarFormat.read(exported, timeZone: .berlin).items.first)
        #expect(read.recurrence?.anchorDay == 31)
        #expect(read.remarks.isEmpty, "\(read.remarks)")
    }

    /// Kept properties go back as they came, but never beside one todod
    /// writes itself (a DURATION beside a DUE), and a repetition has one
    /// DTSTART, todod's: the due date its RRULE counts from. The DTSTART is
    /// kept as an item imported before `scheduled` was read from it keeps it.
    @Test func keptPropertiesNeverDoubleWhatTodoWrites() throws {
        let text = "BEGIN:VTODO\r\nUID:a\r\nSUMMARY:x\r\nURL:https://example.com\r\n"
            + "X-ODD;;:kept as it came\r\nBEGIN:VALARM\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\nEND:VTODO\r\n"
        let read = try #require(try ICalendarFormat.read(text, timeZone: .berlin).items.first)
        #expect(read.foreign.icalendar == ["URL:https://example.com", "X-ODD;;:kept as it came", "BEGIN:VALARM", "TRIGGER:-PT15M", "END:VALARM"])
        let kept = ForeignFields(icalendar: ["DTSTART:20300101T090000Z"] + read.foreign.icalendar)
        var item = TodoItem(id: TodoID(1), title: "x", createdAt: Date(timeIntervalSince1970: 0), foreign: kept)
        let plain = ICalendarFormat.entry(item, listID: "l", now: Date(timeIntervalSince1970: 0), timeZone: .berlin)
        #expect(plain.contains("DTSTART:20300101T090000Z\r\nURL:https://example.com\r\nX-ODD;;:kept as it came\r\nBEGIN:VALARM\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\nEND:VTODO"))
        item.due = .day(CalendarDay(year: 2030, month: 1, day: 5))
        item.recurrence = .weekly
        item.foreign.icalendar.append("DURATION:P1D")
        let repeating = ICalendarFormat.entry(item, listID: "l", now: Date(timeIntervalSince1970: 0), timeZone: .berlin)
        #expect(repeating.components(separatedBy: "DTSTART").count == 2, "\(repeating)")
        #expect(repeating.contains("DTSTART;VALUE=DATE:20300105"))
        #expect(!repeating.contains("DURATION"))
        #expect(repeating.contains("BEGIN:VALARM"))
        item.due = .day(CalendarDay(year: 2029, month: 12, day: 28))
        let early = ICalendarFormat.entry(item, listID: "l", now: Date(timeIntervalSince1970: 0), timeZone: .berlin)
        #expect(early.components(separatedBy: "DTSTART").count == 2, "\(early)")
        #expect(early.contains("DTSTART;VALUE=DATE:20291228"))
        // A due date moved before the kept start drops the start, which
        // RFC 5545 does not allow after DUE; one after it keeps it.
        item.recurrence = nil
        item.due = .day(CalendarDay(year: 2029, month: 12, day: 1))
        #expect(!ICalendarFormat.entry(item, listID: "l", now: Date(timeIntervalSince1970: 0), timeZone: .berlin).contains("DTSTART"))
        item.due = .moment(Date(timeIntervalSince1970: 1_893_488_400))  // 2030-01-01 09:00 UTC
        #expect(ICalendarFormat.entry(item, listID: "l", now: Date(timeIntervalSince1970: 0), timeZone: .berlin).contains("DTSTART:20300101T090000Z"))
    }

    /// A status todod has no word for (IN-PROCESS) goes back while the item
    /// is not done; done, it is COMPLETED.
    @Test func aStatusTodoHasNoWordForGoesBackWhileNotDone() throws {
        let text = "BEGIN:VTODO\r\nUID:a\r\nSUMMARY:x\r\nSTATUS:IN-PROCESS\r\nPERCENT-COMPLETE:20\r\nEND:VTODO\r\n"
        let read = try #require(try ICalendarFormat.read(text, timeZone: .berlin).items.first)
        #expect(!read.isDone)
        var item = TodoItem(id: TodoID(1), title: "x", createdAt: Date(timeIntervalSince1970: 0), foreign: read.foreign)
        let open = ICalendarFormat.entry(item, listID: "l", now: Date(timeIntervalSince1970: 0), timeZone: .berlin)
        #expect(open.components(separatedBy: "STATUS").count == 2 && open.contains("STATUS:IN-PROCESS\r\n"), "\(open)")
        _ = item.setDone(true, at: Date(timeIntervalSince1970: 60))
        let done = ICalendarFormat.entry(item, listID: "l", now: Date(timeIntervalSince1970: 0), timeZone: .berlin)
        #expect(done.components(separatedBy: "STATUS").count == 2 && done.contains("STATUS:COMPLETED\r\n"), "\(done)")
    }

    /// More kept text than an item may hold is refused, naming the limit.
    @Test func keptPropertiesAreBounded() {
        let big = String(repeating: "a", count: ForeignFields.maximumBytes)
        #expect(throws: ImportProblem(location: "to-do 1 (line 1)", message: "\(ForeignFields.maximumBytes + 6) bytes of properties todod does not use; it keeps at most 256 KiB per item")) {
            try ICalendarFormat.read("BEGIN:VTODO\nUID:a\nSUMMARY:x\nX-BIG:\(big)\nEND:VTODO\n", timeZone: .berlin)
        }
    }

    @Test func foldingNeverSplitsACharacterAndKeepsLinesShort() {
        let line = "SUMMARY:" + String(repeating: "ö€𝄞", count: 40)
        let folded = ContentLine.folded(line)
        let physical = folded.utf8.split(separator: 10).map { Array($0) }
        #expect(physical.allSatisfy { $0.count <= 76 })  // 75 octets and the CR
        #expect(String(decoding: physical.map { $0.drop { $0 == 32 } }.map { $0.filter { $0 != 13 } }.joined(), as: UTF8.self) == line)
    }
}

@Suite struct ICalendarRuleTests {
    @Test func aRuleOnAnotherDayOfTheMonthIsLeftOutAndSaid() throws {
        let text = "BEGIN:VTODO\nUID:a\nSUMMARY:x\nDUE;VALUE=DATE:20261205\nRRULE:FREQ=MONTHLY;BYMONTHDAY=1,15\nEND:VTODO\n"
        let item = try #require(try ICalendarFormat.read(text, timeZone: .berlin).items.first)
        #expect(item.recurrence == nil)
        #expect(item.remarks == [
            "repetition FREQ=MONTHLY;BYMONTHDAY=1,15 not used: todod repeats on the due date's day of the month, or the last of the days from the 28th to it",
            "kept as they came for calendars, unused by todod: RRULE",
        ])
        let same = "BEGIN:VTODO\nUID:a\nSUMMARY:x\nDUE;VALUE=DATE:20261205\nRRULE:FREQ=MONTHLY;BYMONTHDAY=5\nEND:VTODO\n"
        #expect(try ICalendarFormat.read(same, timeZone: .berlin).items.first?.recurrence == .monthly)
    }

    /// RFC 5545 passes over the months a plain `FREQ=MONTHLY` from the
    /// 31st (or a `FREQ=YEARLY` from 29 February) cannot land on, where todod
    /// is due on their last day: such a rule is not todod's repetition, and
    /// goes back as it came. One that meets no shorter month is read.
    @Test func aPlainRuleFromADaySomeMonthsLackIsKeptAsItCame() throws {
        func day(_ y: Int, _ m: Int, _ d: Int) -> CalendarDay { CalendarDay(year: y, month: m, day: d) }
        for (rule, due) in [("FREQ=MONTHLY", day(2026, 1, 31)), ("FREQ=MONTHLY;INTERVAL=3", day(2026, 3, 31)), ("FREQ=YEARLY", day(2028, 2, 29))] {
            let text = "BEGIN:VTODO\nUID:a\nSUMMARY:x\nDUE;VALUE=DATE:\(InterchangeDates.compact(due))\nRRULE:\(rule)\nEND:VTODO\n"
            let item = try #require(try ICalendarFormat.read(text, timeZone: .berlin).items.first)
            #expect(item.recurrence == nil, "\(rule)")
            #expect(item.foreign.icalendar == ["RRULE:" + rule])
            #expect(item.remarks.first?.contains("passes over the months without day \(due.day)") == true, "\(item.remarks)")
        }
        #expect(try ICalendarRecurrence.read("FREQ=MONTHLY", due: day(2026, 1, 28)).get() == .monthly)
        #expect(try ICalendarRecurrence.read("FREQ=MONTHLY;INTERVAL=2", due: day(2026, 1, 30)).get() == Recurrence(.every(2, .month)))
        #expect(try ICalendarRecurrence.read("FREQ=MONTHLY;INTERVAL=12", due: day(2026, 1, 31)).get() == Recurrence(.every(12, .month)))
        #expect(try ICalendarRecurrence.read("FREQ=YEARLY", due: day(2027, 3, 31)).get() == .yearly)
    }

    /// An RRULE kept as it came counts from the to-do's DTSTART in that
    /// start's zone: written in UTC, a rule at 09:00 in Berlin would come at
    /// 10:00 all summer. So its start and due moments are written as todod
    /// writes its own repetitions', in floating local time.
    @Test func aKeptRuleKeepsItsWallClockTime() throws {
        let text = "BEGIN:VTODO\nUID:a\nSUMMARY:x\nDTSTART;TZID=Europe/Berlin:20260105T090000\n"
            + "DUE;TZID=Europe/Berlin:20260105T090000\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR\nEND:VTODO\n"
        let read = try #require(try ICalendarFormat.read(text, timeZone: .berlin).items.first)
        #expect(read.recurrence == nil)
        let item = TodoItem(
            id: TodoID(1), title: "x", createdAt: utc(2026, 1, 1), due: read.due, values: read.values, foreign: read.foreign)
        let entry = ICalendarFormat.entry(item, listID: listID, now: utc(2026, 1, 1), timeZone: .berlin)
        #expect(entry.contains("DUE:20260105T090000\r\n"), "\(entry)")
        #expect(entry.contains("DTSTART:20260105T090000\r\n"), "\(entry)")
        #expect(entry.contains("RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR\r\n"), "\(entry)")
        let again = try #require(try ICalendarFormat.read(entry, timeZone: .berlin).items.first)
        #expect(again.due == read.due && again.values == read.values)
    }

    /// A to-do with neither CREATED nor LAST-MODIFIED (as many calendars
    /// write them) has its notes dated when the calendar wrote it, DTSTAMP,
    /// not on 1 January 1970.
    @Test func notesOfAToDoWithoutDatesAreDatedByItsStamp() throws {
        let text = "BEGIN:VTODO\nUID:a\nDTSTAMP:20260101T120000Z\nSUMMARY:x\nDESCRIPTION:one\\ntwo\nEND:VTODO\n"
        let item = try #require(try ICalendarFormat.read(text, timeZone: .berlin).items.first)
        #expect(item.notes == [TodoNote(text: "one", addedAt: utc(2026, 1, 1, 12)), TodoNote(text: "two", addedAt: utc(2026, 1, 1, 12))])
        #expect(item.remarks.isEmpty, "\(item.remarks)")
    }

    /// A UUID is the same in capitals: two to-dos whose UIDs differ only so
    /// would be one identity twice, which no export could give back.
    @Test func uuidsThatDifferOnlyInCaseAreOneUID() throws {
        let upper = "A1111111-1111-4111-8111-111111111111"
        let text = "BEGIN:VTODO\nUID:\(upper)\nSUMMARY:x\nEND:VTODO\nBEGIN:VTODO\nUID:\(upper.lowercased())\nSUMMARY:y\nEND:VTODO\n"
        #expect(throws: ImportProblem(location: "to-do 2 (line 5)", message: "UID \(upper.lowercased()) is also the UID of to-do 1 (line 1)")) {
            try ICalendarFormat.read(text, timeZone: .berlin)
        }
        // UIDs that are no UUID are compared as they are.
        #expect(try ICalendarFormat.read(text.replacingOccurrences(of: "-1111-4111", with: "-1111-X"), timeZone: .berlin).items.count == 2)
    }

    /// A calendar that edits the description keeps todod's X-TODOD-NOTE
    /// lines as they were: the edit is read, not passed over, and a note
    /// it left as it was keeps its date.
    @Test func aDescriptionEditedInACalendarIsTheNotes() throws {
        let item = TodoItem(
            id: TodoID(1), title: "x", createdAt: utc(2026, 1, 1),
            notes: [TodoNote(text: "call back", addedAt: utc(2026, 1, 2)), TodoNote(text: "ask for Ann", addedAt: utc(2026, 1, 3))])
        let entry = ICalendarFormat.entry(item, listID: listID, now: utc(2026, 1, 4), timeZone: .berlin)
        #expect(try ICalendarFormat.read(entry, timeZone: .berlin).items.first?.notes == item.notes)
        let edited = entry.replacingOccurrences(of: "DESCRIPTION:call back\\nask for Ann", with: "DESCRIPTION:call back\\nask for Bob")
        #expect(edited != entry)
        let read = try #require(try ICalendarFormat.read(edited, timeZone: .berlin).items.first)
        #expect(read.notes == [TodoNote(text: "call back", addedAt: utc(2026, 1, 2)), TodoNote(text: "ask for Bob", addedAt: utc(2026, 1, 1))])
        // A description deleted in the calendar, its X- lines kept: no notes.
        let deleted = entry.replacingOccurrences(of: "DESCRIPTION:call back\\nask for Ann\r\n", with: "")
        #expect(deleted != entry)
        #expect(try ICalendarFormat.read(deleted, timeZone: .berlin).items.first?.notes == [])
    }

    /// X-TODOD-RECURRENCE ("from completion") is read while the RRULE is
    /// the one todod wrote (its parts in any order); a repetition changed or
    /// ended in a calendar, which keeps the X- line as it was, is the RRULE's.
    @Test func aRepetitionChangedInACalendarIsReadFromTheRule() throws {
        let watering = try #require(Recurrence("every 2 weeks from completion"))
        let item = TodoItem(id: TodoID(1), title: "water plants", createdAt: utc(2026, 1, 1), due: .day(CalendarDay(year: 2026, month: 1, day: 15)), recurrence: watering)
        let entry = ICalendarFormat.entry(item, listID: listID, now: utc(2026, 1, 1), timeZone: .berlin)
        #expect(entry.contains("RRULE:FREQ=WEEKLY;INTERVAL=2\r\n"), "\(entry)")
        func read(_ text: String) throws -> ImportedItem? { try ICalendarFormat.read(text, timeZone: .berlin).items.first }
        #expect(try read(entry)?.recurrence == watering)
        #expect(try read(entry.replacingOccurrences(of: "RRULE:FREQ=WEEKLY;INTERVAL=2", with: "RRULE:INTERVAL=2;FREQ=WEEKLY"))?.recurrence == watering)
        let monthly = try #require(try read(entry.replacingOccurrences(of: "RRULE:FREQ=WEEKLY;INTERVAL=2", with: "RRULE:FREQ=MONTHLY")))
        #expect(monthly.recurrence == .monthly)
        #expect(monthly.remarks.contains { $0.hasPrefix("X-TODOD-RECURRENCE") }, "\(monthly.remarks)")
        #expect(try read(entry.replacingOccurrences(of: "RRULE:FREQ=WEEKLY;INTERVAL=2\r\n", with: ""))?.recurrence == nil)
    }

    @Test func aWindowsTimeZoneIsReadAsLocalTimeAndSaid() throws {
        let text = "BEGIN:VTODO\nUID:a\nSUMMARY:x\nDUE;TZID=W. Europe Standard Time:20261201T090000\nEND:VTODO\n"
        let item = try #require(try ICalendarFormat.read(text, timeZone: .berlin).items.first)
        #expect(item.due == .moment(utc(2026, 12, 1, 8)))
        #expect(item.remarks.first?.contains("W. Europe Standard Time") == true)
    }

    @Test func aByteOrderMarkIsNoPartOfTheText() throws {
        #expect(try InterchangeFormat.todotxt.read("\u{FEFF}first line\n", timeZone: .berlin).items.first?.title == "first line")
        #expect(try InterchangeFormat.taskwarrior.read("\u{FEFF}[{\"uuid\":\"a\",\"description\":\"x\"}]", timeZone: .berlin).items.count == 1)
    }
}
