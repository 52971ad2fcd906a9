import FoundationEssentials
import TodoModel

/// Reads due dates as the protocol takes them: `YYYY-MM-DD` for a day, or an
/// ISO 8601 date-time (`2026-12-24T18:00`, with optional seconds and an
/// optional `Z` or `±hh:mm` offset; without one it is the daemon's local time).
public enum DueDateText {
    public static func parse(_ text: String, timeZone: TimeZone) -> DueDate? {
        let text = text.trimmingWhitespace()
        if let day = CalendarDay(iso: text) { return .day(day) }
        let parts = text.split(separator: "T", maxSplits: 1)
        guard parts.count == 2, let day = CalendarDay(iso: String(parts[0])) else { return nil }
        var clock = String(parts[1])
        var zone = timeZone
        if clock.hasSuffix("Z") {
            zone = TimeZone(identifier: "UTC")!
            clock.removeLast()
        } else if let sign = clock.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let offset = clock[clock.index(after: sign)...].split(separator: ":")
            guard offset.count == 2, let hours = Int(offset[0]), let minutes = Int(offset[1]),
                let fixed = TimeZone(secondsFromGMT: (clock[sign] == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
            else { return nil }
            zone = fixed
            clock = String(clock[..<sign])
        }
        let fields = clock.split(separator: ":").map { Int($0) }
        guard (2...3).contains(fields.count), fields.allSatisfy({ $0 != nil }) else { return nil }
        let (hour, minute, second) = (fields[0]!, fields[1]!, fields.count == 3 ? fields[2]! : 0)
        guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        let components = DateComponents(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute, second: second)
        return Calendar.gregorian(zone).date(from: components).map(DueDate.moment)
    }
}
