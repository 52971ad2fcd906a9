import Foundation
import Testing
import TodoModel

/// Day forms, read at fixed moments. Friday 2026-11-27 10:00 UTC is the
/// usual `now`; other moments are chosen for a month, year or zone boundary.
@Suite struct NaturalDatesParserTests {
    private func parse(_ text: String, now: String = "2026-11-27T10:00:00Z", zone: String = "UTC") throws -> DueDate {
        try NaturalDateParser(now: DateText.instant(now), timeZone: DateText.zone(zone)).parse(text)
    }

    private func day(_ iso: String) -> DueDate { .day(DateText.day(iso)) }

    @Test(arguments: [
        ("today", "2026-11-27"), ("tomorrow", "2026-11-28"), ("yesterday", "2026-11-26"),
        ("eod", "2026-11-27"), ("eow", "2026-11-29"), ("eom", "2026-11-30"), ("eoy", "2026-12-31"),
        ("next week", "2026-11-30"), ("next month", "2026-12-01"), ("next year", "2027-01-01"),
        ("in 3 days", "2026-11-30"), ("3d", "2026-11-30"), ("in 1 day", "2026-11-28"),
        ("in 2 weeks", "2026-12-11"), ("2w", "2026-12-11"),
        ("in 1 month", "2026-12-27"), ("1m", "2026-12-27"), ("in 14 months", "2028-01-27"),
        ("in 1 year", "2027-11-27"), ("1y", "2027-11-27"),
        ("2026-12-24", "2026-12-24"), ("2025-01-02", "2025-01-02"),
    ])
    func readsNamedAndRelativeDays(text: String, expected: String) throws {
        #expect(try parse(text) == day(expected))
    }

    /// On Friday 27 November every weekday name means the next such day
    /// strictly after today: `fri` is the Friday a week away.
    @Test(arguments: [
        ("mon", "2026-11-30"), ("monday", "2026-11-30"), ("tue", "2026-12-01"), ("tues", "2026-12-01"),
        ("tuesday", "2026-12-01"), ("wed", "2026-12-02"), ("wednesday", "2026-12-02"), ("thu", "2026-12-03"),
        ("thurs", "2026-12-03"), ("thursday", "2026-12-03"), ("fri", "2026-12-04"), ("friday", "2026-12-04"),
        ("sat", "2026-11-28"), ("saturday", "2026-11-28"), ("sun", "2026-11-29"), ("sunday", "2026-11-29"),
    ])
    func aWeekdayIsTheNextOneAfterToday(text: String, expected: String) throws {
        #expect(try parse(text) == day(expected))
        #expect(try parse(text.uppercased()) == day(expected))
    }

    @Test func onASundayTheWeekEndsTodayAndNextWeekIsTomorrow() throws {
        let sunday = "2026-11-29T10:00:00Z"
        #expect(try parse("eow", now: sunday) == day("2026-11-29"))
        #expect(try parse("next week", now: sunday) == day("2026-11-30"))
        #expect(try parse("sun", now: sunday) == day("2026-12-06"))
        #expect(try parse("mon", now: sunday) == day("2026-11-30"))
    }

    @Test func monthEndsClampAndFollowLeapYears() throws {
        #expect(try parse("1m", now: "2026-01-31T12:00:00Z") == day("2026-02-28"))
        #expect(try parse("in 1 month", now: "2028-01-31T12:00:00Z") == day("2028-02-29"))
        #expect(try parse("2m", now: "2026-01-31T12:00:00Z") == day("2026-03-31"))
        #expect(try parse("1y", now: "2028-02-29T12:00:00Z") == day("2029-02-28"))
        #expect(try parse("4y", now: "2028-02-29T12:00:00Z") == day("2032-02-29"))
        #expect(try parse("eom", now: "2026-02-10T12:00:00Z") == day("2026-02-28"))
        #expect(try parse("eom", now: "2028-02-10T12:00:00Z") == day("2028-02-29"))
        #expect(try parse("eom", now: "2100-02-10T12:00:00Z") == day("2100-02-28"))
        #expect(try parse("eom", now: "2026-04-10T12:00:00Z") == day("2026-04-30"))
    }

    @Test func yearEndsRollOver() throws {
        let december = "2026-12-15T10:00:00Z"
        #expect(try parse("next month", now: december) == day("2027-01-01"))
        #expect(try parse("1m", now: december) == day("2027-01-15"))
        #expect(try parse("eom", now: december) == day("2026-12-31"))
        #expect(try parse("3w", now: december) == day("2027-01-05"))
        #expect(try parse("tomorrow", now: "2026-12-31T22:00:00Z") == day("2027-01-01"))
        #expect(try parse("next week", now: "2026-12-31T22:00:00Z") == day("2027-01-04"))
    }

    /// "Today" is the day in the given zone, not in UTC.
    @Test func todayIsTheDayInTheZone() throws {
        let newYearsEveUTC = "2026-12-31T22:00:00Z"
        #expect(try parse("today", now: newYearsEveUTC, zone: "Pacific/Auckland") == day("2027-01-01"))
        #expect(try parse("eoy", now: newYearsEveUTC, zone: "Pacific/Auckland") == day("2027-12-31"))
        #expect(try parse("yesterday", now: newYearsEveUTC, zone: "Pacific/Auckland") == day("2026-12-31"))
        #expect(try parse("today", now: newYearsEveUTC, zone: "America/New_York") == day("2026-12-31"))
        #expect(try parse("eoy", now: newYearsEveUTC, zone: "America/New_York") == day("2026-12-31"))
        let kolkataMarch = "2026-02-28T20:00:00Z"  // 01:30 on 1 March in India
        #expect(try parse("today", now: kolkataMarch, zone: "Asia/Kolkata") == day("2026-03-01"))
        #expect(try parse("eom", now: kolkataMarch, zone: "Asia/Kolkata") == day("2026-03-31"))
        #expect(try parse("eom", now: kolkataMarch, zone: "UTC") == day("2026-02-28"))
        #expect(try parse("sun", now: kolkataMarch, zone: "Asia/Kolkata") == day("2026-03-08"))
        #expect(try parse("sun", now: kolkataMarch, zone: "UTC") == day("2026-03-01"))
    }

    @Test(arguments: [
        ("24 dec", "2026-12-24"), ("dec 24", "2026-12-24"), ("24 december", "2026-12-24"),
        ("December 24", "2026-12-24"), ("27 nov", "2026-11-27"), ("26 nov", "2027-11-26"),
        ("1 jan", "2027-01-01"), ("29 feb", "2028-02-29"), ("7 sept", "2027-09-07"),
        ("24 dec 2027", "2027-12-24"), ("dec 24 2027", "2027-12-24"), ("24 dec 2025", "2025-12-24"),
        ("29 feb 2028", "2028-02-29"),
    ])
    func aDayOfAMonthIsTheNextOnOrAfterToday(text: String, expected: String) throws {
        #expect(try parse(text) == day(expected))
    }

    @Test func aDayOfAMonthCountsTodayInTheZone() throws {
        // 01:00 on 27 November in Auckland, still 26 November in UTC.
        let now = "2026-11-26T12:00:00Z"
        #expect(try parse("27 nov", now: now, zone: "Pacific/Auckland") == day("2026-11-27"))
        #expect(try parse("26 nov", now: now, zone: "Pacific/Auckland") == day("2027-11-26"))
        #expect(try parse("26 nov", now: now, zone: "UTC") == day("2026-11-26"))
    }

    @Test func spacesAndCaseDoNotMatter() throws {
        #expect(try parse("  In   3\tDAYS  ") == day("2026-11-30"))
        #expect(try parse("NEXT  Week") == day("2026-11-30"))
        #expect(try parse("\u{00A0}Tomorrow\n") == day("2026-11-28"))
    }
}

@Suite struct NaturalDatesErrorTests {
    private func failure(of text: String) -> NaturalDateError? {
        let parser = NaturalDateParser(now: DateText.instant("2026-11-27T10:00:00Z"), timeZone: DateText.zone("UTC"))
        do {
            _ = try parser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        "", "   ", "someday", "next fortnight", "in three days", "in 3 fortnights", "fri fri", "32 dec", "0 dec",
        "dec", "24", "in 10000 days", "3x", "d3", "-3d", "in -3 days", "next", "tomorrow 9", "tomorrow 25:00",
        "tomorrow 13pm", "tomorrow 0am", "tomorrow 9:5", "tomorrow 18:00 extra", "24 dec 27", "2026-13-01",
        "2026-12-24T", "2026-12-24T25:00", "2026/12/24",
    ])
    func refusesOtherTextListingTheAcceptedForms(text: String) throws {
        let error = try #require(failure(of: text))
        #expect(error.message.contains(NaturalDateError.acceptedForms))
        #expect(error.message.contains("today, tomorrow, fri, next week"))
    }

    @Test(arguments: [
        ("31 feb", "there is no 31 February;"), ("feb 30", "there is no 30 February;"),
        ("31 apr", "there is no 31 April;"), ("29 feb 2027", "there is no 29 February 2027;"),
        ("2026-02-29", "there is no 29 February 2026;"), ("31 sep 18:00", "there is no 31 September;"),
        ("2026-04-31T10:00", "there is no 31 April 2026;"),
    ])
    func refusesDaysThatDoNotExist(text: String, reason: String) throws {
        let error = try #require(failure(of: text))
        #expect(error.message.hasPrefix(reason))
        #expect(error.message.contains(NaturalDateError.acceptedForms))
    }

    @Test func anOffsetNeedsAnISODate() throws {
        let error = try #require(failure(of: "tomorrow 18:00Z"))
        #expect(error.message.contains("offset"))
        #expect(error.message.contains(NaturalDateError.acceptedForms))
    }
}
