import FoundationEssentials
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
        created(date, today: CalendarDay(now, in: timeZone))
    }

    /// As `created(_:now:)`, with today's date already found (once for many rows).
    func created(_ date: Date, today: CalendarDay) -> String {
        "created " + day(CalendarDay(date, in: timeZone), today: today)
    }

    public func due(_ due: DueDate, now: Date) -> String {
        self.due(due, today: CalendarDay(now, in: timeZone))
    }

    /// As `due(_:now:)`, with today's date already found (once for many rows).
    func due(_ due: DueDate, today: CalendarDay) -> String {
        switch due {
        case .day(let dueDay):
            return "due " + day(dueDay, today: today)
        case .moment(let date):
            // The wall-clock time in the zone, by the zone's offset at that
            // instant (as `CalendarDay(_:in:)` finds the day): no calendar
            // and no format string per row.
            let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
            let dayNumber = Int((local / 86_400).rounded(.down))
            let secondOfDay = Int(local.rounded(.down)) - dayNumber * 86_400
            let (hour, minute) = (secondOfDay / 3600, secondOfDay / 60 % 60)
            let clock = (hour < 10 ? "0" : "") + String(hour) + (minute < 10 ? ":0" : ":") + String(minute)
            return "due " + day(CalendarDay(dayNumber: dayNumber), today: today) + " at " + clock
        }
    }
}
