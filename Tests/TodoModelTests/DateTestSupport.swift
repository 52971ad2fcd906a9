import Foundation
import TodoModel

/// Dates for the tests, written as ISO 8601 text with an explicit offset and
/// read by Foundation, so expectations never go through the code under test.
enum DateText {
    static func instant(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else { fatalError("not an ISO 8601 instant: \(text)") }
        return date
    }

    static func day(_ text: String) -> CalendarDay {
        guard let day = CalendarDay(iso: text) else { fatalError("not an ISO date: \(text)") }
        return day
    }

    static func zone(_ identifier: String) -> TimeZone {
        guard let zone = TimeZone(identifier: identifier) else { fatalError("unknown zone \(identifier)") }
        return zone
    }
}
