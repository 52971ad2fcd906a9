import FoundationEssentials

/// When an item is due: a whole day, or a moment.
///
/// "Due Friday" and "due Friday 14:00" are different promises: the first is
/// overdue only once Friday is over, the second at 14:01. A day is kept as a
/// calendar date, not a timestamp, so it means the same day in any time zone.
public enum DueDate: Hashable, Sendable, Codable {
    case day(CalendarDay)
    case moment(Date)

    /// The first instant at which the item counts as overdue, in `timeZone`.
    public func overdueFrom(in timeZone: TimeZone) -> Date {
        switch self {
        case .day(let day): day.start(in: timeZone).addingDays(1, in: timeZone)
        case .moment(let date): date
        }
    }

    /// Orders due dates for sorting: by the instant each begins in `timeZone`.
    public func sortInstant(in timeZone: TimeZone) -> Date {
        switch self {
        case .day(let day): day.start(in: timeZone)
        case .moment(let date): date
        }
    }
}

/// A calendar date (year, month, day) with no time and no zone.
public struct CalendarDay: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `date` falls on in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone) {
        self.init(dayNumber: Self.dayNumber(of: date, in: timeZone))
    }

    /// Days since 1970-01-01 of the day `date` falls on in `timeZone`: one
    /// zone-offset lookup and integer arithmetic, no calendar decomposition,
    /// because view models word the dates of 100,000 rows at a time.
    public static func dayNumber(of date: Date, in timeZone: TimeZone) -> Int {
        let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        return Int((local / 86_400).rounded(.down))
    }

    /// Days since 1970-01-01 (proleptic Gregorian; H. Hinnant's days_from_civil).
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `dayNumber` days after 1970-01-01 (civil_from_days).
    public init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// Reads `YYYY-MM-DD`; `nil` for anything else, including impossible dates.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        let components = DateComponents(year: year, month: month, day: day)
        guard components.isValidDate(in: Calendar.gregorian(TimeZone(identifier: "UTC")!)) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public func start(in timeZone: TimeZone) -> Date {
        Calendar.gregorian(timeZone).date(from: DateComponents(year: year, month: month, day: day))!
    }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(until other: CalendarDay) -> Int {
        other.dayNumber - dayNumber
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        // Written digit by digit: rows of a view of 100,000 items carry
        // several dates each, and `String(format:)` took most of their time.
        guard (0...9999).contains(year), (0...99).contains(month), (0...99).contains(day) else {
            return String.zeroPadded(year, width: 4) + "-" + String.zeroPadded(month, width: 2) + "-" + String.zeroPadded(day, width: 2)
        }
        return String(unsafeUninitializedCapacity: 10) { buffer in
            writeISO(into: buffer)
            return 10
        }
    }

    /// Writes `YYYY-MM-DD` into the first 10 bytes of `buffer` (year
    /// 0...9999, month and day 0...99).
    private func writeISO(into buffer: UnsafeMutableBufferPointer<UInt8>) {
        let zero = UInt8(ascii: "0")
        buffer[0] = zero + UInt8(year / 1000)
        buffer[1] = zero + UInt8(year / 100 % 10)
        buffer[2] = zero + UInt8(year / 10 % 10)
        buffer[3] = zero + UInt8(year % 10)
        buffer[4] = UInt8(ascii: "-")
        buffer[5] = zero + UInt8(month / 10)
        buffer[6] = zero + UInt8(month % 10)
        buffer[7] = UInt8(ascii: "-")
        buffer[8] = zero + UInt8(day / 10)
        buffer[9] = zero + UInt8(day % 10)
    }
}

extension Calendar {
    /// The Gregorian calendar in `timeZone`; every date computation here uses it,
    /// so results do not depend on the machine's locale.
    public static func gregorian(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}

extension Date {
    /// The same wall-clock time `days` calendar days later, in `timeZone`.
    public func addingDays(_ days: Int, in timeZone: TimeZone) -> Date {
        Calendar.gregorian(timeZone).date(byAdding: .day, value: days, to: self)!
    }
}
