import FoundationEssentials

/// Reads the dates people type — `tomorrow`, `fri 18:00`, `in 2 weeks`,
/// `24 dec` — as a `DueDate`.
///
/// `now` and `timeZone` are given, never read from the system, so the same
/// text always means the same date in tests and a client can ask what a text
/// would mean in its user's zone. Text is read case-insensitively and spaces
/// may be repeated; everything not listed here is refused with a
/// `NaturalDateError` rather than guessed at.
///
/// A day form gives `.day`; a day form followed by a time gives `.moment`:
/// - `today`, `tomorrow`, `yesterday`.
/// - A weekday, `fri` or `friday`: the next such day **strictly after**
///   today, as Taskwarrior reads it. On a Friday, `fri` is a week away: a
///   person typing "fri" on a Friday means the coming one, and "today" is
///   there for today.
/// - `next week` (Monday of next week), `next month` (the 1st of next month),
///   `next year` (1 January). Weeks run Monday to Sunday.
/// - `eod`, `eow`, `eom`, `eoy`: the last day of this day, week (Sunday),
///   month, year. A day-due item is due until its day is over, so the last
///   day *is* the end of the period; a moment at 23:59:59 would say the same
///   less honestly and break on days without midnight.
/// - `in 3 days`, `in 2 weeks`, `in 1 month`, `in 1 year` and `3d`, `2w`,
///   `1m`, `1y`. Months and years are calendar months, clamped to the last
///   day of a shorter month: 31 January + 1m is 28 (or 29) February.
/// - `24 dec`, `dec 24`, `24 december`, `december 24`: the next such date
///   **on or after** today (today counts: a date named by number is meant
///   literally). With a year, `24 dec 2027`, that date. A date that does not
///   exist (`31 feb`, `29 feb 2027`) is an error, not the next that does.
/// - `2026-12-24`.
///
/// Times: `18:00`, `18:00:30`, `9am`, `9:30pm`, read in `timeZone`
/// (see `CalendarDay.moment(at:in:)` for times skipped or repeated by a DST
/// change). After an ISO date the time may be joined by `T`
/// (`2026-12-24T18:00`) and carry a UTC offset (`Z`, `+01:00`), which then
/// wins over `timeZone`.
public struct NaturalDateParser: Sendable {
    public let now: Date
    public let timeZone: TimeZone

    public init(now: Date, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
    }

    public var today: CalendarDay { CalendarDay(now, in: timeZone) }

    /// Refuses `text` if it is a date in none of the accepted forms.
    ///
    /// Which texts are dates does not depend on the clock (a 29 February
    /// comes within eight years of any day), so a query's dates are checked
    /// when the query is read, where the error can say where in the query
    /// the date is, and resolved later against the clock of each tick.
    public static func check(_ text: String) throws(NaturalDateError) {
        _ = try NaturalDateParser(now: Date(timeIntervalSince1970: 0), timeZone: .gmt).parse(text)
    }

    public func parse(_ text: String) throws(NaturalDateError) -> DueDate {
        let words = Self.words(of: text)
        if let day = try day(from: words) {
            return .day(day)
        }
        // A time at the end: one word ("9am"), or two when am/pm stands apart ("9 am").
        for timeWordCount in [1, 2] where words.count > timeWordCount {
            guard let clock = ClockTimeText(words.suffix(timeWordCount).joined()),
                let day = try day(from: Array(words.dropLast(timeWordCount)))
            else { continue }
            guard let offset = clock.utcOffset else {
                return .moment(day.moment(at: clock.time, in: timeZone))
            }
            guard words.count == timeWordCount + 1, CalendarDay(iso: words[0]) != nil else {
                throw .offsetNeedsISODate
            }
            let wall = day.dayNumber * 86_400 + clock.time.secondsIntoDay
            return .moment(Date(timeIntervalSince1970: Double(wall - offset)))
        }
        throw .unrecognised(text.trimmingWhitespace())
    }

    /// Lowercase words; an ISO date-time's `T` separates two words.
    private static func words(of text: String) -> [String] {
        text.lowercased().split(whereSeparator: \.isWhitespace).flatMap { word -> [String] in
            let characters = Array(word)
            if characters.count > 11, characters[10] == "t", isISODateShaped(String(characters[..<10])) {
                return [String(characters[..<10]), String(characters[11...])]
            }
            return [String(word)]
        }
    }

    /// The day `words` name, `nil` if they are no day form; throws only for a
    /// well-formed date that does not exist.
    private func day(from words: [String]) throws(NaturalDateError) -> CalendarDay? {
        let today = self.today
        switch words.count {
        case 1:
            let word = words[0]
            switch word {
            case "today", "eod": return today
            case "tomorrow": return today.adding(days: 1)
            case "yesterday": return today.adding(days: -1)
            case "eow": return today.adding(days: 7 - today.weekday)
            case "eom": return today.lastDayOfMonth
            case "eoy": return CalendarDay(year: today.year, month: 12, day: 31)
            default: break
            }
            if let weekday = EnglishCalendarNames.weekday(named: word) {
                return today.adding(days: (weekday - today.weekday + 6) % 7 + 1)
            }
            if let unit = word.last, let amount = Self.amount(word.dropLast()) {
                return Self.offset(today, by: amount, unit: String(unit))
            }
            return try Self.isoDay(word)
        case 2:
            if words[0] == "next" {
                switch words[1] {
                case "week": return today.adding(days: 8 - today.weekday)
                case "month": return CalendarDay(year: today.year, month: today.month, day: 1).adding(months: 1)
                case "year": return CalendarDay(year: today.year + 1, month: 1, day: 1)
                default: return nil
                }
            }
            return try dayOfMonth(words, year: nil)
        case 3:
            if words[0] == "in", let amount = Self.amount(words[1][...]) {
                return Self.offset(today, by: amount, unit: words[2])
            }
            guard let year = Self.year(words[2]) else { return nil }
            return try dayOfMonth(Array(words.prefix(2)), year: year)
        default:
            return nil
        }
    }

    /// `24 dec` or `dec 24`: in `year` when given, else the next on or after today.
    private func dayOfMonth(_ words: [String], year: Int?) throws(NaturalDateError) -> CalendarDay? {
        let pair: (month: Int, day: Int)? =
            if let month = EnglishCalendarNames.month(named: words[1]), let day = Self.dayNumber(words[0]) {
                (month, day)
            } else if let month = EnglishCalendarNames.month(named: words[0]), let day = Self.dayNumber(words[1]) {
                (month, day)
            } else {
                nil
            }
        guard let (month, day) = pair else { return nil }
        if let year {
            let date = CalendarDay(year: year, month: month, day: day)
            guard date.exists else { throw .noSuchDay(day: day, month: month, year: year) }
            return date
        }
        // 29 February may be up to eight years away (2096 → 2104); 31 February never comes.
        let today = self.today
        for year in today.year...(today.year + 8) {
            let date = CalendarDay(year: year, month: month, day: day)
            if date.exists, date >= today { return date }
        }
        throw .noSuchDay(day: day, month: month, year: nil)
    }

    /// `today` moved by `amount` of `unit` (`d`/`day`/`days`, `w`…, `m`…, `y`…).
    private static func offset(_ today: CalendarDay, by amount: Int, unit: String) -> CalendarDay? {
        switch unit {
        case "d", "day", "days": today.adding(days: amount)
        case "w", "week", "weeks": today.adding(days: 7 * amount)
        case "m", "month", "months": today.adding(months: amount)
        case "y", "year", "years": today.adding(months: 12 * amount)
        default: nil
        }
    }

    /// `YYYY-MM-DD`; `nil` for text of another shape, an error for a date of
    /// that shape that does not exist (`2026-02-30`).
    private static func isoDay(_ word: String) throws(NaturalDateError) -> CalendarDay? {
        if let day = CalendarDay(iso: word) { return day }
        guard isISODateShaped(word) else { return nil }
        let parts = word.split(separator: "-")
        let (year, month, day) = (Int(parts[0])!, Int(parts[1])!, Int(parts[2])!)
        guard (1...12).contains(month) else { return nil }
        throw .noSuchDay(day: day, month: month, year: year)
    }

    /// `DDDD-DD-DD`, whether or not it is a date that exists.
    private static func isISODateShaped(_ word: String) -> Bool {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [4, 2, 2] && parts.allSatisfy { $0.allSatisfy(\.isASCIIDigit) }
    }

    /// A count of days, weeks, months or years: up to four digits, so every
    /// result stays a date people mean (and within `Calendar`'s range).
    private static func amount(_ text: Substring) -> Int? {
        guard (1...4).contains(text.count), text.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(text)
    }

    /// A day of month as typed: one or two digits, 1 to 31.
    private static func dayNumber(_ text: String) -> Int? {
        guard (1...2).contains(text.count), text.allSatisfy(\.isASCIIDigit), let day = Int(text), (1...31).contains(day)
        else { return nil }
        return day
    }

    private static func year(_ text: String) -> Int? {
        guard text.count == 4, text.allSatisfy(\.isASCIIDigit), let year = Int(text), year >= 1 else { return nil }
        return year
    }
}
