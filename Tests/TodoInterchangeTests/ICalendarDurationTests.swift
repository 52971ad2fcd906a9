import Foundation
import Testing
import TodoModel

@testable import TodoInterchange

/// A to-do due at `DTSTART` plus `DURATION` (RFC 5545 §3.6.2) rather than at `DUE`.
@Suite struct ICalendarDurationTests {
    static let countedRemark = "start date (DTSTART) used with DURATION for the due date"
    /// Kept as they came, and said.
    static func kept(_ names: String) -> String { "kept as they came for calendars, unused by todod: \(names)" }

    /// The one to-do of a calendar with these properties.
    static func item(_ properties: String...) throws -> ImportedItem {
        let text = "BEGIN:VTODO\r\nUID:a\r\nSUMMARY:x\r\n" + properties.map { $0 + "\r\n" }.joined() + "END:VTODO\r\n"
        return try #require(try ICalendarFormat.read(text, timeZone: .berlin).items.first)
    }

    @Test(arguments: [
        ("P1W", 7, 0), ("P1D", 1, 0), ("PT1H30M", 0, 5400), ("-P2D", -2, 0), ("P1DT2H", 1, 7200), ("+PT15M", 0, 900),
        ("PT45S", 0, 45), ("PT1H30S", 0, 3630), ("P1W2D", 9, 0), ("p1dt1m", 1, 60), (" P0D ", 0, 0), ("-P1DT12H", -1, -43_200),
    ])
    func durationsAreRead(text: String, days: Int, seconds: Int) {
        let duration = ICalendarDuration(text)
        #expect(duration?.days == days)
        #expect(duration?.seconds == seconds)
    }

    @Test(arguments: [
        "", "P", "PT", "1D", "P1", "PD", "P1DT", "P1H", "PT1D", "P1D1W", "PT1M1H", "P1.5D", "P-1D", "--P1D", "P1DT1H2H",
        "PT1HT1M", "P1D ,", "P1Y", "P1M",
    ])
    func whatIsNoDurationIsNotRead(text: String) {
        #expect(ICalendarDuration(text) == nil)
    }

    /// Large numbers of seconds or minutes are counted, not cut short.
    @Test func aLongDurationInSecondsOrMinutesIsCountedWhole() throws {
        let seconds = try Self.item("DTSTART:20000101T000000Z", "DURATION:PT999999999S")
        #expect(seconds.due == .moment(utc(2000, 1, 1).addingTimeInterval(999_999_999)))
        let minutes = try Self.item("DTSTART:20000101T000000Z", "DURATION:PT200000000M")
        #expect(minutes.due == .moment(utc(2000, 1, 1).addingTimeInterval(200_000_000 * 60)), "some 380 years later")
    }

    @Test func theDueDateIsTheStartPlusTheDuration() throws {
        let inUTC = try Self.item("DTSTART:20261201T090000Z", "DURATION:PT1H30M")
        #expect(inUTC.due == .moment(utc(2026, 12, 1, 10, 30)))
        // The start of a to-do that does not repeat is its `scheduled` date too.
        #expect(inUTC.values == ["scheduled": .date(.moment(utc(2026, 12, 1, 9)))])
        #expect(inUTC.remarks == [Self.countedRemark])
        #expect(try Self.item("DTSTART:20261201T090000Z", "DURATION:-P1DT2H").due == .moment(utc(2026, 11, 30, 7)))
        #expect(try Self.item("DTSTART:20261201T090000Z", "DURATION:P2W").due == .moment(utc(2026, 12, 15, 9)))
        // Floating: todod's zone (Berlin, +1 in December).
        #expect(try Self.item("DTSTART:20261201T090000", "DURATION:P1D").due == .moment(utc(2026, 12, 2, 8)))
    }

    /// A day is a calendar day, an hour an hour: across the end of summer
    /// time in Berlin (25 October 2026), P1D is 25 hours and PT24H is 24.
    @Test func daysAreCalendarDaysInTheStartsZone() throws {
        let start = "DTSTART;TZID=Europe/Berlin:20261024T090000"
        #expect(try Self.item(start, "DURATION:P1D").due == .moment(utc(2026, 10, 25, 8)))  // 09:00 CET
        #expect(try Self.item(start, "DURATION:PT24H").due == .moment(utc(2026, 10, 25, 7)))  // 08:00 CET
        #expect(try Self.item(start, "DURATION:P1DT1H").due == .moment(utc(2026, 10, 25, 9)))
        // And into summer time (8 March 2026 in New York), in a zone other than todod's.
        let newYork = "DTSTART;TZID=America/New_York:20260307T090000"
        #expect(try Self.item(newYork, "DURATION:P1D").due == .moment(utc(2026, 3, 8, 13)))  // 09:00 EDT
        #expect(try Self.item(newYork, "DURATION:PT24H").due == .moment(utc(2026, 3, 8, 14)))  // 10:00 EDT
    }

    @Test func aDayPlusWholeDaysIsADay() throws {
        let week = try Self.item("DTSTART;VALUE=DATE:20261230", "DURATION:P1W")
        #expect(week.due == .day(CalendarDay(year: 2027, month: 1, day: 6)))
        #expect(week.values == ["scheduled": .date(.day(CalendarDay(year: 2026, month: 12, day: 30)))])
        #expect(week.remarks == [Self.countedRemark])
        #expect(try Self.item("DTSTART;VALUE=DATE:20261230", "DURATION:P0D").due == .day(CalendarDay(year: 2026, month: 12, day: 30)))
        // A time of day makes it a moment, from the day's start in todod's zone.
        #expect(try Self.item("DTSTART;VALUE=DATE:20261230", "DURATION:P1DT12H").due == .moment(utc(2026, 12, 31, 11)))
    }

    @Test func aDurationThatCannotBeCountedIsSaidAndTheItemKept() throws {
        let notADuration = try Self.item("DTSTART:20261201T090000Z", "DURATION:1 hour")
        #expect(notADuration.due == nil)
        #expect(
            notADuration.remarks == [
                "DURATION 1 hour not counted: not an iCalendar duration (P1W, P2D, PT1H30M, -P1DT12H)", Self.kept("DURATION"),
            ])
        let noStart = try Self.item("DURATION:P1D")
        #expect(noStart.due == nil)
        #expect(noStart.remarks == ["DURATION P1D not counted: there is no DTSTART to count it from", Self.kept("DURATION")])
        let badStart = try Self.item("DTSTART:2026120", "DURATION:P1D")
        #expect(badStart.due == nil)
        #expect(
            badStart.remarks == [
                "DURATION P1D not counted: DTSTART 2026120: not an iCalendar date (20240115 or 20240115T093000[Z])",
                "DTSTART 2026120 not used: not an iCalendar date (20240115 or 20240115T093000[Z])", Self.kept("DTSTART, DURATION"),
            ])
        let tooFar = try Self.item("DTSTART:20261201T090000Z", "DURATION:P99999999999999999999W")
        #expect(tooFar.due == nil)
        #expect(tooFar.remarks.first == "DURATION P99999999999999999999W not counted: DTSTART plus it is outside the years 0000 to 9999")
        #expect(try Self.item("DTSTART:99991231T090000Z", "DURATION:PT15H").due == nil)
        for tooMany in ["PT99999999999999999999S", "PT400000000000S", "-P3800000D"] {
            #expect(try Self.item("DTSTART:20261201T090000Z", "DURATION:\(tooMany)").due == nil, "\(tooMany)")
        }
        // DUE wins (RFC 5545 allows one of them only).
        let both = try Self.item("DTSTART:20261201T090000Z", "DUE:20261203T090000Z", "DURATION:P1D")
        #expect(both.due == .moment(utc(2026, 12, 3, 9)))
        #expect(both.remarks == ["DURATION P1D left out: the to-do has a DUE"])
    }

    @Test func aRepetitionCountsFromTheDueDateTheDurationGives() throws {
        let item = try Self.item("DTSTART;VALUE=DATE:20261201", "DURATION:P4D", "RRULE:FREQ=MONTHLY;BYMONTHDAY=5")
        #expect(item.due == .day(CalendarDay(year: 2026, month: 12, day: 5)))
        #expect(item.recurrence == .monthly)
    }
}
