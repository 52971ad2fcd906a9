import FoundationEssentials
import TodoModel

/// Dates as rows carry them for scripts: ISO 8601, a day as `2026-11-27`,
/// an instant as `2026-11-27T17:00:00Z` (UTC, whole seconds).
///
/// Written by integer arithmetic into one buffer rather than by a
/// `DateFormatter` or by joining pieces, because a view of 100,000 rows
/// writes three of these per row.
enum ISODateText {
    static func instant(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let dayNumber = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - dayNumber * 86_400
        let day = CalendarDay(dayNumber: dayNumber)
        guard (0...9999).contains(day.year) else {
            return day.description + "T" + twoDigits(secondOfDay / 3600) + ":" + twoDigits(secondOfDay / 60 % 60) + ":"
                + twoDigits(secondOfDay % 60) + "Z"
        }
        // YYYY-MM-DDTHH:MM:SSZ
        return String(unsafeUninitializedCapacity: 20) { buffer in
            func put(_ value: Int, at index: Int) {
                buffer[index] = UInt8(ascii: "0") + UInt8(value / 10)
                buffer[index + 1] = UInt8(ascii: "0") + UInt8(value % 10)
            }
            put(day.year / 100, at: 0)
            put(day.year % 100, at: 2)
            buffer[4] = UInt8(ascii: "-")
            put(day.month, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(day.day, at: 8)
            buffer[10] = UInt8(ascii: "T")
            put(secondOfDay / 3600, at: 11)
            buffer[13] = UInt8(ascii: ":")
            put(secondOfDay / 60 % 60, at: 14)
            buffer[16] = UInt8(ascii: ":")
            put(secondOfDay % 60, at: 17)
            buffer[19] = UInt8(ascii: "Z")
            return 20
        }
    }

    static func date(_ date: DueDate) -> String {
        switch date {
        case .day(let day): day.description
        case .moment(let instant): Self.instant(instant)
        }
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}
