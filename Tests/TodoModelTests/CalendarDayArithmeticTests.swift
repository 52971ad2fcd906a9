import Foundation
import Testing
import TodoModel

@Suite struct CalendarDayArithmeticTests {
    @Test func weekdaysRunFromMondayToSunday() {
        // 2026-11-23 was a Monday.
        let weekdays = (0..<7).map { DateText.day("2026-11-23").adding(days: $0).weekday }
        #expect(weekdays == [1, 2, 3, 4, 5, 6, 7])
        #expect(DateText.day("1970-01-01").weekday == 4)
        #expect(DateText.day("1969-12-28").weekday == 7)
    }

    @Test func addingMonthsClampsToTheLastDayOfTheMonth() {
        #expect(DateText.day("2026-01-31").adding(months: 1) == DateText.day("2026-02-28"))
        #expect(DateText.day("2028-01-31").adding(months: 1) == DateText.day("2028-02-29"))
        #expect(DateText.day("2026-03-31").adding(months: 1) == DateText.day("2026-04-30"))
        #expect(DateText.day("2026-11-30").adding(months: 2) == DateText.day("2027-01-30"))
        #expect(DateText.day("2026-03-15").adding(months: -3) == DateText.day("2025-12-15"))
        #expect(DateText.day("2028-02-29").adding(months: 12) == DateText.day("2029-02-28"))
    }

    @Test func anAnchorDayIsAimedForAndClamped() {
        #expect(DateText.day("2026-02-28").adding(months: 1, anchorDay: 31) == DateText.day("2026-03-31"))
        #expect(DateText.day("2026-03-31").adding(months: 1, anchorDay: 31) == DateText.day("2026-04-30"))
        #expect(DateText.day("2029-02-28").adding(months: 36, anchorDay: 29) == DateText.day("2032-02-29"))
    }

    @Test func monthLengthsFollowTheGregorianLeapRules() {
        #expect(CalendarDay.daysIn(month: 2, of: 2028) == 29)
        #expect(CalendarDay.daysIn(month: 2, of: 2100) == 28)
        #expect(CalendarDay.daysIn(month: 2, of: 2000) == 29)
        #expect(CalendarDay.daysIn(month: 2, of: 2026) == 28)
        #expect(CalendarDay.daysIn(month: 9, of: 2026) == 30)
        #expect(DateText.day("2100-02-10").lastDayOfMonth == DateText.day("2100-02-28"))
        #expect(!CalendarDay(year: 2026, month: 2, day: 29).exists)
        #expect(CalendarDay(year: 2028, month: 2, day: 29).exists)
    }
}
