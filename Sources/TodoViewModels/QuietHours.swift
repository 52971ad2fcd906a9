import FoundationEssentials
import TodoModel

/// A daily stretch of wall-clock time in which nothing is put on the desktop,
/// such as 22:00–07:00. It may wrap past midnight; start equal to end means
/// none. Reminders that fire in it are held back, not lost: they show when it
/// ends (the view model ticks at each boundary).
public struct QuietHours: Hashable, Sendable, CustomStringConvertible {
    public var start: TimeOfDay
    public var end: TimeOfDay

    public init(start: TimeOfDay, end: TimeOfDay) {
        self.start = start
        self.end = end
    }

    /// Reads `22:00-07:00` (hours and minutes, a hyphen between); nil otherwise.
    public init?(text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Self.time(parts[0]), let end = Self.time(parts[1]) else { return nil }
        self.init(start: start, end: end)
    }

    private static func time(_ text: Substring) -> TimeOfDay? {
        let fields = text.trimmingWhitespace().split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2, fields.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) }),
            let hour = Int(fields[0]), let minute = Int(fields[1])
        else { return nil }
        return TimeOfDay(hour: hour, minute: minute)
    }

    public var description: String { "\(start)-\(end)" }

    /// Whether the wall clock in `timeZone` reads a quiet time at `date`.
    public func contains(_ date: Date, in timeZone: TimeZone) -> Bool {
        let time = TimeOfDay(date, in: timeZone)
        if start == end { return false }
        return start < end ? (time >= start && time < end) : (time >= start || time < end)
    }

    /// The first instant after `date` at which quiet hours begin or end.
    public func nextBoundary(after date: Date, in timeZone: TimeZone) -> Date? {
        guard start != end else { return nil }
        let today = CalendarDay(date, in: timeZone)
        let candidates = [0, 1].flatMap { offset -> [Date] in
            let day = CalendarDay(dayNumber: today.dayNumber + offset)
            return [day.moment(at: start, in: timeZone), day.moment(at: end, in: timeZone)]
        }
        return candidates.filter { $0 > date }.min()
    }
}
