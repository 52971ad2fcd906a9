import Foundation
import GRDB
import TodoModel

/// Dates as GRDB stores them, "yyyy-MM-dd HH:mm:ss.SSS" in UTC, written
/// and read without a `DateFormatter`.
///
/// Every commit writes an item row with up to three dates; through GRDB's
/// formatter those cost more than the rest of the row together. The text is
/// identical (a test compares it with GRDB's for many dates), so rows written
/// either way read back the same and old databases need no migration.
enum StoredDateText {
    static func databaseValue(_ date: Date) -> DatabaseValue {
        var text = [UInt8](repeating: 0, count: length)
        // Outside years 1000–9999 the fixed-width layout does not apply.
        guard text.withUnsafeMutableBufferPointer({ write(date, into: $0.baseAddress!) }) else { return date.databaseValue }
        return String(decoding: text, as: UTF8.self).databaseValue
    }

    /// The length of the text: "yyyy-MM-dd HH:mm:ss.SSS".
    static let length = 23

    /// Writes the text of `date` into the `length` bytes at `buffer`, or
    /// returns false (writing nothing) for a date outside years 1000–9999.
    /// The store's writer binds it from a buffer on the stack.
    static func write(_ date: Date, into buffer: UnsafeMutablePointer<UInt8>) -> Bool {
        let milliseconds = (date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down)
        guard milliseconds > -30_610_224_000_000, milliseconds < 253_402_300_800_000 else { return false }
        let total = Int64(milliseconds)
        let dayMilliseconds: Int64 = 86_400_000
        let dayNumber = total >= 0 ? total / dayMilliseconds : (total - dayMilliseconds + 1) / dayMilliseconds
        let ofDay = Int(total - dayNumber * dayMilliseconds)
        let day = CalendarDay(dayNumber: Int(dayNumber))
        var position = 0
        func append(_ value: Int, digits: Int) {
            var rest = value
            var index = position + digits - 1
            while index >= position {
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                index -= 1
            }
            position += digits
        }
        func separator(_ character: Unicode.Scalar) {
            buffer[position] = UInt8(ascii: character)
            position += 1
        }
        append(day.year, digits: 4)
        separator("-")
        append(day.month, digits: 2)
        separator("-")
        append(day.day, digits: 2)
        separator(" ")
        append(ofDay / 3_600_000, digits: 2)
        separator(":")
        append(ofDay / 60_000 % 60, digits: 2)
        separator(":")
        append(ofDay / 1000 % 60, digits: 2)
        separator(".")
        append(ofDay % 1000, digits: 3)
        return true
    }

    /// Reads the text `databaseValue` writes (also without milliseconds), or
    /// returns nil for any other form, which the caller leaves to GRDB. At
    /// start-up every item's dates are read; through GRDB's generic decoding
    /// they took more time than the rest of the row.
    static func date(fromText text: UnsafeRawBufferPointer) -> Date? {
        guard text.count == 23 || text.count == 19 else { return nil }
        func number(_ start: Int, _ digits: Int) -> Int? {
            var value = 0
            for index in start..<(start + digits) {
                let digit = Int(text[index]) - 48
                guard digit >= 0, digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        func separator(_ index: Int, _ character: Unicode.Scalar) -> Bool { text[index] == UInt8(ascii: character) }
        guard separator(4, "-"), separator(7, "-"), separator(10, " "), separator(13, ":"), separator(16, ":"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            // Years before 1000 are written by GRDB's formatter (Julian before
            // 1582), so they are left to GRDB to read back alike.
            year >= 1000, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        var milliseconds = 0
        if text.count == 23 {
            guard separator(19, "."), let fraction = number(20, 3) else { return nil }
            milliseconds = fraction
        }
        let dayNumber = CalendarDay(year: year, month: month, day: day).dayNumber
        let total = ((Int64(dayNumber) * 24 + Int64(hour)) * 60 + Int64(minute)) * 60 + Int64(second)
        return Date(timeIntervalSince1970: Double(total * 1000 + Int64(milliseconds)) / 1000)
    }
}
