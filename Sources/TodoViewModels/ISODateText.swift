import Foundation
import TodoModel

/// Dates as rows carry them for scripts: ISO 8601, a day as `2026-11-27`,
/// an instant as `2026-11-27T17:00:00Z` (UTC, whole seconds).
///
/// Written by integer arithmetic rather than a `DateFormatter`, because a
/// view of 100,000 rows writes three of these per row.
enum ISODateText {
    static func instant(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let dayNumber = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - dayNumber * 86_400
        let day = CalendarDay(dayNumber: dayNumber)
        return day.description + "T" + twoDigits(secondOfDay / 3600) + ":" + twoDigits(secondOfDay / 60 % 60) + ":"
            + twoDigits(secondOfDay % 60) + "Z"
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
