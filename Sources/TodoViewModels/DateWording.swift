import Foundation
import TodoModel

/// How dates read in rows: relative when near ("today", "yesterday", "in 2 days",
/// "3 days ago"), an ISO date (2026-11-22) otherwise. Always from the injected
/// clock and time zone, so the same inputs give the same words.
public struct DateWording: Sendable {
    public let timeZone: TimeZone
    /// How many days away still reads as relative.
    public static let relativeDays = 6

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// "today", "tomorrow", "yesterday", "in 3 days", "4 days ago", or "2026-12-24".
    public func day(_ day: CalendarDay, today: CalendarDay) -> String {
        let offset = today.days(until: day)
        switch offset {
        case 0: return "today"
        case 1: return "tomorrow"
        case -1: return "yesterday"
        case 2...Self.relativeDays: return "in \(offset) days"
        case -Self.relativeDays ... -2: return "\(-offset) days ago"
        default: return day.description
        }
    }

    public func created(_ date: Date, now: Date) -> String {
        "created " + day(CalendarDay(date, in: timeZone), today: CalendarDay(now, in: timeZone))
    }

    public func due(_ due: DueDate, now: Date) -> String {
        let today = CalendarDay(now, in: timeZone)
        switch due {
        case .day(let dueDay):
            return "due " + day(dueDay, today: today)
        case .moment(let date):
            let time = Calendar.gregorian(timeZone).dateComponents([.hour, .minute], from: date)
            let clock = String(format: "%02d:%02d", time.hour!, time.minute!)
            return "due " + day(CalendarDay(date, in: timeZone), today: today) + " at " + clock
        }
    }
}
