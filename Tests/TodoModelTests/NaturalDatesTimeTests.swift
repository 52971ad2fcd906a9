import Foundation
import Testing
import TodoModel

/// Day forms followed by a time, ISO date-times, and times on DST-change days.
@Suite struct NaturalDatesTimeTests {
    private func parse(_ text: String, now: String = "2026-11-27T10:00:00Z", zone: String = "UTC") throws -> DueDate {
        try NaturalDateParser(now: DateText.instant(now), timeZone: DateText.zone(zone)).parse(text)
    }

    private func moment(_ iso: String) -> DueDate { .moment(DateText.instant(iso)) }

    @Test(arguments: [
        ("fri 18:00", "2026-12-04T18:00:00Z"), ("tomorrow 9am", "2026-11-28T09:00:00Z"),
        ("tomorrow 9 am", "2026-11-28T09:00:00Z"), ("tomorrow 9:30pm", "2026-11-28T21:30:00Z"),
        ("today 12pm", "2026-11-27T12:00:00Z"), ("today 12am", "2026-11-27T00:00:00Z"),
        ("tomorrow 12:30am", "2026-11-28T00:30:00Z"), ("TOMORROW 9:30PM", "2026-11-28T21:30:00Z"),
        ("tomorrow 18:00:30", "2026-11-28T18:00:30Z"), ("tomorrow 7:05", "2026-11-28T07:05:00Z"),
        ("24 dec 07:15", "2026-12-24T07:15:00Z"), ("dec 24 2027 7pm", "2027-12-24T19:00:00Z"),
        ("in 3 days 08:00", "2026-11-30T08:00:00Z"), ("2w 23:59:59", "2026-12-11T23:59:59Z"),
        ("next week 9am", "2026-11-30T09:00:00Z"), ("eom 17:00", "2026-11-30T17:00:00Z"),
        ("  tomorrow    9am ", "2026-11-28T09:00:00Z"),
    ])
    func aTimeAfterADayGivesAMoment(text: String, expected: String) throws {
        #expect(try parse(text) == moment(expected))
    }

    @Test func timesAreReadInTheZone() throws {
        #expect(try parse("fri 18:00", zone: "Europe/Berlin") == moment("2026-12-04T18:00:00+01:00"))
        // 05:00 on 27 November in New York.
        #expect(try parse("tomorrow 9am", zone: "America/New_York") == moment("2026-11-28T09:00:00-05:00"))
        #expect(try parse("24 dec 07:15", zone: "Pacific/Auckland") == moment("2026-12-24T07:15:00+13:00"))
        // 01:30 on 1 March in India.
        #expect(
            try parse("tomorrow 9am", now: "2026-02-28T20:00:00Z", zone: "Asia/Kolkata")
                == moment("2026-03-02T09:00:00+05:30"))
        #expect(
            try parse("today 12am", now: "2026-02-28T20:00:00Z", zone: "Asia/Kolkata")
                == moment("2026-03-01T00:00:00+05:30"))
    }

    @Test(arguments: [
        ("2026-12-24T18:00", "2026-12-24T18:00:00+01:00"), ("2026-12-24 18:00", "2026-12-24T18:00:00+01:00"),
        ("2026-12-24T18:00:30", "2026-12-24T18:00:30+01:00"), ("2026-07-01T18:00", "2026-07-01T18:00:00+02:00"),
        ("2026-12-24T18:00Z", "2026-12-24T18:00:00Z"), ("2026-12-24t18:00z", "2026-12-24T18:00:00Z"),
        ("2026-12-24T18:00:00+05:30", "2026-12-24T18:00:00+05:30"), ("2026-12-24 18:00 -05:00", "2026-12-24T18:00:00-05:00"),
        ("2026-12-24T18:00+0100", "2026-12-24T18:00:00+01:00"), ("2026-12-24T18:00-03", "2026-12-24T18:00:00-03:00"),
        ("2026-12-24 6pm", "2026-12-24T18:00:00+01:00"),
    ])
    func readsISODateTimesInTheZoneUnlessTheyNameAnOffset(text: String, expected: String) throws {
        #expect(try parse(text, zone: "Europe/Berlin") == moment(expected))
    }

    @Test func anISODateAloneIsADay() throws {
        #expect(try parse("2026-12-24", zone: "Pacific/Auckland") == .day(DateText.day("2026-12-24")))
    }

    /// Berlin springs forward at 02:00 on 2026-03-29: 02:00–02:59 do not exist,
    /// and a time in the gap is due when the clock jumps, 03:00 CEST.
    @Test func aTimeInTheSpringForwardGapIsDueWhenTheClockJumps() throws {
        let saturday = "2026-03-28T12:00:00+01:00"
        #expect(try parse("tomorrow 02:30", now: saturday, zone: "Europe/Berlin") == moment("2026-03-29T03:00:00+02:00"))
        #expect(try parse("tomorrow 2am", now: saturday, zone: "Europe/Berlin") == moment("2026-03-29T03:00:00+02:00"))
        #expect(try parse("tomorrow 01:59", now: saturday, zone: "Europe/Berlin") == moment("2026-03-29T01:59:00+01:00"))
        #expect(try parse("tomorrow 03:30", now: saturday, zone: "Europe/Berlin") == moment("2026-03-29T03:30:00+02:00"))
        #expect(try parse("tomorrow 9am", now: saturday, zone: "Europe/Berlin") == moment("2026-03-29T09:00:00+02:00"))
        #expect(
            try parse("tomorrow 2:30am", now: "2026-03-07T12:00:00-05:00", zone: "America/New_York")
                == moment("2026-03-08T03:00:00-04:00"))
        #expect(
            try parse("tomorrow 02:30", now: "2026-09-26T12:00:00+12:00", zone: "Pacific/Auckland")
                == moment("2026-09-27T03:00:00+13:00"))
    }

    /// New York falls back at 02:00 EDT on 2026-11-01: 01:00–01:59 happen
    /// twice, and a time then is the earlier one, in EDT.
    @Test func aTimeThatHappensTwiceIsTheEarlier() throws {
        let saturday = "2026-10-31T12:00:00-04:00"
        #expect(try parse("tomorrow 01:30", now: saturday, zone: "America/New_York") == moment("2026-11-01T01:30:00-04:00"))
        #expect(try parse("sun 1am", now: saturday, zone: "America/New_York") == moment("2026-11-01T01:00:00-04:00"))
        #expect(try parse("tomorrow 02:00", now: saturday, zone: "America/New_York") == moment("2026-11-01T02:00:00-05:00"))
        #expect(
            try parse("tomorrow 02:30", now: "2026-10-24T12:00:00+02:00", zone: "Europe/Berlin")
                == moment("2026-10-25T02:30:00+02:00"))
        #expect(
            try parse("tomorrow 02:30", now: "2026-04-04T12:00:00+13:00", zone: "Pacific/Auckland")
                == moment("2026-04-05T02:30:00+13:00"))
    }

    /// An offset fixes the instant even in a gap: no rule is needed.
    @Test func anOffsetNeedsNoGapRule() throws {
        #expect(
            try parse("2026-03-29T02:30+01:00", zone: "Europe/Berlin") == moment("2026-03-29T01:30:00Z"))
    }
}

@Suite struct NaturalDatesWordingTests {
    private let now = DateText.instant("2026-11-27T10:00:00Z")

    @Test func wordsADayAndAMoment() {
        let utc = DateText.zone("UTC")
        #expect(DueDate.day(DateText.day("2026-11-27")).worded(in: utc, now: now) == "Friday 27 November")
        #expect(DueDate.moment(DateText.instant("2026-11-27T18:00:00Z")).worded(in: utc, now: now) == "Friday 27 November 18:00")
        #expect(DueDate.moment(DateText.instant("2026-12-04T07:05:30Z")).worded(in: utc, now: now) == "Friday 4 December 07:05:30")
    }

    @Test func namesEveryWeekdayAndMonth() {
        let utc = DateText.zone("UTC")
        let weekdays = (0..<7).map { DueDate.day(DateText.day("2026-11-23").adding(days: $0)).worded(in: utc, now: now) }
        #expect(weekdays == [
            "Monday 23 November", "Tuesday 24 November", "Wednesday 25 November", "Thursday 26 November",
            "Friday 27 November", "Saturday 28 November", "Sunday 29 November",
        ])
        let months = (1...12).map {
            DueDate.day(CalendarDay(year: 2026, month: $0, day: 1)).worded(in: utc, now: now).split(separator: " ")[2]
        }
        #expect(months == [
            "January", "February", "March", "April", "May", "June",
            "July", "August", "September", "October", "November", "December",
        ])
    }

    @Test func addsTheYearOnlyWhenItIsNotThisYear() {
        let utc = DateText.zone("UTC")
        #expect(DueDate.day(DateText.day("2027-12-24")).worded(in: utc, now: now) == "Friday 24 December 2027")
        #expect(DueDate.day(DateText.day("2025-12-24")).worded(in: utc, now: now) == "Wednesday 24 December 2025")
    }

    @Test func wordsAMomentInTheZone() {
        let moment = DueDate.moment(DateText.instant("2026-11-27T12:00:00Z"))
        #expect(moment.worded(in: DateText.zone("Pacific/Auckland"), now: now) == "Saturday 28 November 01:00")
        #expect(moment.worded(in: DateText.zone("Asia/Kolkata"), now: now) == "Friday 27 November 17:30")
        #expect(moment.worded(in: DateText.zone("America/New_York"), now: now) == "Friday 27 November 07:00")
    }

    @Test func previewsWhatWasTyped() throws {
        let parser = NaturalDateParser(now: now, timeZone: DateText.zone("Europe/Berlin"))
        #expect(try parser.parse("fri 18:00").worded(in: parser.timeZone, now: parser.now) == "Friday 4 December 18:00")
        #expect(try parser.parse("eoy").worded(in: parser.timeZone, now: parser.now) == "Thursday 31 December")
    }
}
