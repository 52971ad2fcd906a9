import Foundation
import GRDB
import TodoModel

/// Dates as GRDB stores them, "yyyy-MM-dd HH:mm:ss.SSS" in UTC, written
/// without a `DateFormatter`.
///
/// Every commit writes an item row with up to three dates; through GRDB's
/// formatter those cost more than the rest of the row together. The text is
/// identical (a test compares it with GRDB's for many dates), so rows written
/// either way read back the same and old databases need no migration.
enum StoredDateText {
    static func databaseValue(_ date: Date) -> DatabaseValue {
        let milliseconds = (date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down)
        // Outside years 1000–9999 the fixed-width layout below does not apply.
        guard milliseconds > -30_610_224_000_000, milliseconds < 253_402_300_800_000 else { return date.databaseValue }
        let total = Int64(milliseconds)
        let dayMilliseconds: Int64 = 86_400_000
        let dayNumber = total >= 0 ? total / dayMilliseconds : (total - dayMilliseconds + 1) / dayMilliseconds
        let ofDay = Int(total - dayNumber * dayMilliseconds)
        let day = CalendarDay(dayNumber: Int(dayNumber))
        var text = [UInt8]()
        text.reserveCapacity(23)
        func append(_ value: Int, digits: Int) {
            var divisor = 1
            for _ in 1..<digits { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        append(day.year, digits: 4)
        text.append(UInt8(ascii: "-"))
        append(day.month, digits: 2)
        text.append(UInt8(ascii: "-"))
        append(day.day, digits: 2)
        text.append(UInt8(ascii: " "))
        append(ofDay / 3_600_000, digits: 2)
        text.append(UInt8(ascii: ":"))
        append(ofDay / 60_000 % 60, digits: 2)
        text.append(UInt8(ascii: ":"))
        append(ofDay / 1000 % 60, digits: 2)
        text.append(UInt8(ascii: "."))
        append(ofDay % 1000, digits: 3)
        return String(decoding: text, as: UTF8.self).databaseValue
    }
}
