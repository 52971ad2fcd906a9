import FoundationEssentials
import TodoModel

/// The date forms the formats write, read and written with day numbers and
/// integer arithmetic rather than `DateFormatter` or `Calendar`: an import
/// of 20,000 tasks reads some 80,000 dates.
enum InterchangeDates {
    /// The instant of a UTC wall-clock time.
    static func utc(_ day: CalendarDay, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Date {
        Date(timeIntervalSince1970: Double(day.dayNumber * 86_400 + hour * 3600 + minute * 60 + second))
    }

    /// The instant a wall-clock time in `timeZone` names; a time the clock
    /// skips (a DST gap) is read as the moment after the jump.
    static func local(_ day: CalendarDay, hour: Int, minute: Int, second: Int, in timeZone: TimeZone) -> Date {
        let wall = utc(day, hour: hour, minute: minute, second: second)
        // The offset at the wall time read as UTC, then at the instant that gives.
        let guess = wall.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: wall)))
        return wall.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: guess)))
    }

    /// A due or wait date from an instant: the whole day when the instant is
    /// that day's start in `timeZone` (how Taskwarrior stores `due:friday`),
    /// else the moment.
    static func dueDate(at instant: Date, in timeZone: TimeZone) -> DueDate {
        let day = CalendarDay(instant, in: timeZone)
        return day.start(in: timeZone) == instant ? .day(day) : .moment(instant)
    }

    /// The instant a due date is written as where a format holds only instants.
    static func instant(of due: DueDate, in timeZone: TimeZone) -> Date {
        switch due {
        case .day(let day): day.start(in: timeZone)
        case .moment(let date): date
        }
    }

    /// Reads `20240115T093000Z` (Taskwarrior, iCalendar) and
    /// `2024-01-15T09:30:00Z` (ISO 8601 with separators); nil for anything else.
    static func utcInstant(_ text: some StringProtocol) -> Date? {
        guard let (day, time, zone) = dateTimeParts(text), let time, zone == "Z" else { return nil }
        return utc(day, hour: time.hour, minute: time.minute, second: time.second)
    }

    /// A date, a time and a zone suffix, from `YYYYMMDD[THHMMSS][Z]` or
    /// `YYYY-MM-DD[THH:MM:SS][Z]`.
    static func dateTimeParts(_ text: some StringProtocol) -> (CalendarDay, (hour: Int, minute: Int, second: Int)?, String)? {
        let bytes = text.utf8.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ":") }
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes.count >= 8, let year = number(0..<4), let month = number(4..<6), let dayOfMonth = number(6..<8) else {
            return nil
        }
        let day = CalendarDay(year: year, month: month, day: dayOfMonth)
        guard (1...12).contains(month), day.exists else { return nil }
        if bytes.count == 8 { return (day, nil, "") }
        guard bytes[8] == UInt8(ascii: "T"), let hour = number(9..<11), let minute = number(11..<13),
            let second = number(13..<15), hour < 24, minute < 60, second < 61
        else { return nil }
        let zone = String(decoding: bytes[15...], as: UTF8.self)
        guard zone.isEmpty || zone == "Z" else { return nil }
        return (day, (hour, minute, min(second, 59)), zone)
    }

    /// `20240115T093000Z`.
    static func compactUTC(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let dayNumber = Int((Double(seconds) / 86_400).rounded(.down))
        let day = CalendarDay(dayNumber: dayNumber)
        let secondOfDay = seconds - dayNumber * 86_400
        return compact(day) + "T" + .zeroPadded(secondOfDay / 3600, width: 2) + .zeroPadded(secondOfDay / 60 % 60, width: 2)
            + .zeroPadded(secondOfDay % 60, width: 2) + "Z"
    }

    /// `20240115`.
    static func compact(_ day: CalendarDay) -> String {
        .zeroPadded(day.year, width: 4) + .zeroPadded(day.month, width: 2) + .zeroPadded(day.day, width: 2)
    }
}
