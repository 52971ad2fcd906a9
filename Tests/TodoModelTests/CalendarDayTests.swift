import Foundation
import Testing
import TodoModel

@Suite struct CalendarDayTests {
    /// Day numbers agree with Foundation's calendar for every day from 1900 to
    /// 2100, and the day a moment falls on agrees in zones with DST changes.
    @Test func dayArithmeticAgreesWithFoundation() {
        let utc = TimeZone(identifier: "UTC")!
        let calendar = Calendar.gregorian(utc)
        var date = calendar.date(from: DateComponents(year: 1900, month: 1, day: 1))!
        let end = calendar.date(from: DateComponents(year: 2100, month: 12, day: 31))!
        var mismatches = 0
        while date <= end {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let day = CalendarDay(year: parts.year!, month: parts.month!, day: parts.day!)
            if CalendarDay(dayNumber: day.dayNumber) != day || day.dayNumber != Int(date.timeIntervalSince1970 / 86_400) {
                mismatches += 1
            }
            date = date.addingTimeInterval(86_400)
        }
        #expect(mismatches == 0)
    }

    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Chatham"])
    func theDayOfAMomentAgreesWithFoundation(zone: String) {
        let timeZone = TimeZone(identifier: zone)!
        let calendar = Calendar.gregorian(timeZone)
        var mismatches = 0
        // Every 37 minutes through 2026, which crosses each zone's DST changes.
        var moment = Date(timeIntervalSince1970: 1_767_225_600)
        while moment.timeIntervalSince1970 < 1_798_761_600 {
            let parts = calendar.dateComponents([.year, .month, .day], from: moment)
            if CalendarDay(moment, in: timeZone) != CalendarDay(year: parts.year!, month: parts.month!, day: parts.day!) {
                mismatches += 1
            }
            moment = moment.addingTimeInterval(37 * 60)
        }
        #expect(mismatches == 0)
    }

    @Test func isoTextIsReadStrictly() {
        #expect(CalendarDay(iso: "2028-02-29") == CalendarDay(year: 2028, month: 2, day: 29))
        #expect(CalendarDay(iso: "2026-02-29") == nil)
        #expect(CalendarDay(iso: "2026-1-5") == nil)
        #expect(CalendarDay(year: 2026, month: 1, day: 5).description == "2026-01-05")
    }
}

@Suite struct OverdueTests {
    /// `isOverdue` (day numbers, for every row) and `overdueFrom` (the instant
    /// reminders are scheduled for) are two forms of one rule: they must flip
    /// at the same instant, also on days when clocks change.
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Chatham", "UTC"])
    func bothFormsOfTheRuleAgree(zone: String) {
        let timeZone = TimeZone(identifier: zone)!
        let created = Date(timeIntervalSince1970: 1_767_225_600)
        for dayNumber in CalendarDay(year: 2026, month: 1, day: 1).dayNumber...CalendarDay(year: 2026, month: 12, day: 31).dayNumber {
            let due = DueDate.day(CalendarDay(dayNumber: dayNumber))
            let item = TodoItem(id: TodoID(1), title: "x", createdAt: created, due: due)
            let flip = due.overdueFrom(in: timeZone)
            #expect(!item.isOverdue(at: flip.addingTimeInterval(-1), in: timeZone), "\(due) in \(zone)")
            #expect(item.isOverdue(at: flip, in: timeZone), "\(due) in \(zone)")
        }
        let moment = DueDate.moment(Date(timeIntervalSince1970: 1_790_000_000))
        let item = TodoItem(id: TodoID(1), title: "x", createdAt: created, due: moment)
        #expect(!item.isOverdue(at: moment.overdueFrom(in: timeZone).addingTimeInterval(-1), in: timeZone))
        #expect(item.isOverdue(at: moment.overdueFrom(in: timeZone), in: timeZone))
    }
}
