/// Whole-day arithmetic on calendar dates: weekdays, month lengths, adding
/// days and months.
///
/// Done on day numbers and (year, month) pairs rather than through
/// `Calendar`, so the results cannot depend on a time zone: a calendar date
/// has none, and "the 31st plus a month" is the same everywhere.
extension CalendarDay {
    /// The ISO weekday: 1 is Monday, 7 is Sunday (1970-01-01 was a Thursday).
    public var weekday: Int {
        let fromMonday = (dayNumber + 3) % 7
        return (fromMonday < 0 ? fromMonday + 7 : fromMonday) + 1
    }

    public func adding(days: Int) -> CalendarDay {
        CalendarDay(dayNumber: dayNumber + days)
    }

    /// The same day of month `months` calendar months later (or earlier),
    /// clamped to the last day of the month it lands in: 31 Jan + 1 month is
    /// 28 Feb (29 in a leap year), never 3 March.
    ///
    /// `anchorDay`, when given, is the day of month to aim for instead of
    /// `day`: a monthly item first due on the 31st is due on 31 March even
    /// though it was last due on 28 February.
    public func adding(months: Int, anchorDay: Int? = nil) -> CalendarDay {
        let monthIndex = year * 12 + (month - 1) + months
        let newYear = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
        let newMonth = monthIndex - newYear * 12 + 1
        let wanted = anchorDay ?? day
        return CalendarDay(year: newYear, month: newMonth, day: min(wanted, Self.daysIn(month: newMonth, of: newYear)))
    }

    /// The last day of this day's month.
    public var lastDayOfMonth: CalendarDay {
        CalendarDay(year: year, month: month, day: Self.daysIn(month: month, of: year))
    }

    /// Whether this (year, month, day) exists in the Gregorian calendar.
    public var exists: Bool {
        (1...12).contains(month) && (1...Self.daysIn(month: month, of: year)).contains(day)
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// 28 to 31; `month` is 1 to 12.
    public static func daysIn(month: Int, of year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
