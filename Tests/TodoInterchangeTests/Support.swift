import Foundation
import TodoModel

extension TimeZone {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
}

/// 2026-11-22 12:00 in Berlin.
let noon = Date(timeIntervalSince1970: 1_795_345_200)
let listID = "0b7e1c2a-5d3f-4e6a-9b8c-7d6e5f4a3b2c"

/// A UTC instant from its parts.
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Date {
    Date(timeIntervalSince1970: Double(CalendarDay(year: year, month: month, day: day).dayNumber * 86_400 + hour * 3600 + minute * 60))
}
