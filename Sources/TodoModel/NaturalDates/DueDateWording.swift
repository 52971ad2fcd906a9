import FoundationEssentials

extension DueDate {
    /// The due date in words, for showing what a typed date was read as
    /// before it is saved: "Friday 27 November", "Friday 27 November 18:00".
    ///
    /// English from fixed tables and a 24-hour clock, whatever the machine's
    /// locale, so a preview reads the same in every client. The year is added
    /// only when it is not the year of `now` ("Thursday 24 December 2027"),
    /// because a preview exists to catch the date that was not meant.
    public func worded(in timeZone: TimeZone, now: Date) -> String {
        let (day, time): (CalendarDay, TimeOfDay?) =
            switch self {
            case .day(let day): (day, nil)
            case .moment(let date): (CalendarDay(date, in: timeZone), TimeOfDay(date, in: timeZone))
            }
        var words = "\(EnglishCalendarNames.weekdayNames[day.weekday - 1]) \(day.day) "
            + EnglishCalendarNames.monthNames[day.month - 1]
        if day.year != CalendarDay(now, in: timeZone).year {
            words += " \(day.year)"
        }
        if let time {
            words += " \(time)"
        }
        return words
    }
}
