import FoundationEssentials
import TodoModel

/// `RRULE`s (RFC 5545 §3.3.10) for the repetitions todod has: `FREQ` with
/// `INTERVAL`, and Monday to Friday as `FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR`.
/// "From completion" has no RRULE; an export says it in `X-TODOD-RECURRENCE`.
enum ICalendarRecurrence {
    static let weekdays = "MO,TU,WE,TH,FR"

    /// The repetition `rule` says, or why todod cannot keep it.
    /// `due` is the to-do's due day: a `BYMONTHDAY` or `BYMONTH` is kept
    /// only when it names that day or month, which is where todod repeats.
    static func read(_ rule: String, due: CalendarDay?) -> Result<Recurrence, ImportProblem> {
        var parts: [String: String] = [:]
        for part in rule.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parts[pair[0].uppercased()] = pair[1].uppercased() }
        }
        // UNTIL is the item's `until` (read by the format, `until(in:)`).
        let unsupported = Set(parts.keys).subtracting(["FREQ", "INTERVAL", "BYDAY", "WKST", "BYMONTHDAY", "BYMONTH", "BYSETPOS", "UNTIL"])
        func refusal(_ why: String) -> Result<Recurrence, ImportProblem> {
            .failure(ImportProblem(location: "", message: "repetition \(ImportFields.shown(rule)) not used: \(why)"))
        }
        if !unsupported.isEmpty { return refusal("todod has no \(unsupported.sorted().joined(separator: ", "))") }
        // The last day of the month, or the anchor a month-end rule names,
        // when the due day is that day in its month.
        var anchor: Int?
        if let days = parts["BYMONTHDAY"] {
            if let end = monthEndAnchor(byMonthDay: days, bySetPosition: parts["BYSETPOS"]), let due,
                due.day == min(end, due.lastDayOfMonth.day)
            {
                anchor = end > 28 ? end : nil
            } else if Int(days) != due?.day || parts["BYSETPOS"] != nil {
                return refusal("todod repeats on the due date's day of the month, or the last of the days from the 28th to it")
            }
        } else if parts["BYSETPOS"] != nil {
            return refusal("todod has BYSETPOS only for the end of a month")
        }
        if let month = parts["BYMONTH"], parts["FREQ"] != "YEARLY" || Int(month) != due?.month {
            return refusal("todod repeats yearly in the due date's month")
        }
        guard let interval = Int(parts["INTERVAL"] ?? "1"), interval > 0 else { return refusal("INTERVAL is not a count") }
        if let days = parts["BYDAY"] {
            guard days.split(separator: ",").sorted() == weekdays.split(separator: ",").sorted(), interval == 1,
                parts["FREQ"] == "WEEKLY" || parts["FREQ"] == "DAILY"
            else { return refusal("todod repeats on weekdays only as Monday to Friday") }
            return .success(.weekdays)
        }
        let unit: Recurrence.Unit
        switch parts["FREQ"] {
        case "DAILY": unit = .day
        case "WEEKLY": unit = .week
        case "MONTHLY": unit = .month
        case "YEARLY": unit = .year
        default: return refusal("todod repeats daily, weekly, monthly or yearly")
        }
        if anchor != nil, unit != .month && unit != .year { return refusal("todod repeats by days of the month monthly or yearly") }
        // RFC 5545 passes over a month that lacks the start's day (monthly
        // from 31 January: 31 March next), where todod is due on its last
        // day (28 February): a rule without BYMONTHDAY that meets such a
        // month is not todod's, and is kept as it came.
        if parts["BYMONTHDAY"] == nil, let due, unit == .month || unit == .year {
            let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]  // February as in most years
            let months = unit == .month ? (0..<12).map { (due.month - 1 + $0 * interval) % 12 } : [due.month - 1]
            if months.contains(where: { lengths[$0] < due.day }) {
                return refusal("RFC 5545 passes over the months without day \(due.day), where todod is due on their last day")
            }
        }
        do { return .success(try Recurrence(.every(interval, unit), anchorDay: anchor)) } catch { return refusal(error.message) }
    }

    /// The `RRULE` for `recurrence` on a to-do due on `due`, counted from a
    /// `DTSTART` on that day, so that any RFC 5545 reader expands it to the
    /// dates todod gives. A month-end anchor (`Recurrence.anchorDay`, 29 to
    /// 31) is the last of the days from the 28th to it that the month has:
    /// `BYMONTHDAY=28,29,30;BYSETPOS=-1` for the 30th, `BYMONTHDAY=-1` for
    /// the 31st. A plain `FREQ=MONTHLY` from 31 January would skip every
    /// month without a 31st, where todod is due on its last day.
    static func rule(of recurrence: Recurrence, due: CalendarDay?) -> String {
        switch recurrence.period {
        case .weekdays: return "FREQ=WEEKLY;BYDAY=" + weekdays
        case .every(let count, let unit):
            let frequency =
                switch unit {
                case .day: "DAILY"
                case .week: "WEEKLY"
                case .month: "MONTHLY"
                case .year: "YEARLY"
                }
            var rule = "FREQ=\(frequency)" + (count == 1 ? "" : ";INTERVAL=\(count)")
            if let anchor = recurrence.anchorDay, unit == .month || unit == .year {
                if unit == .year, let due { rule += ";BYMONTH=\(due.month)" }
                rule += anchor == 31 ? ";BYMONTHDAY=-1" : ";BYMONTHDAY=" + (28...anchor).map(String.init).joined(separator: ",") + ";BYSETPOS=-1"
            }
            return rule
        }
    }

    /// Whether two rules say the same but for `UNTIL` (which is the item's
    /// `until`): their parts compared as a set, since calendars write them
    /// in their own order.
    static func sameRule(_ rule: String, _ other: String) -> Bool {
        func parts(_ rule: String) -> Set<String> {
            Set(rule.uppercased().split(separator: ";").map(String.init).filter { !$0.hasPrefix("UNTIL=") && !$0.isEmpty })
        }
        return parts(rule) == parts(other)
    }

    /// The rule's `UNTIL` value, as written (`20270131` or `20270131T235959[Z]`).
    static func until(in rule: String) -> String? {
        for part in rule.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].uppercased() == "UNTIL" { return String(pair[1]) }
        }
        return nil
    }

    /// `UNTIL` for an item's `until` on a rule counted from a `DTSTART` on
    /// `due` (written with `floating` local times when a moment): of
    /// DTSTART's value type (RFC 5545 §3.3.10), and inclusive where todod's
    /// `until` is not: an occurrence is due before the end of the until day,
    /// or before the until moment, so UNTIL is that day, or the second before.
    static func untilValue(_ until: DueDate, due: DueDate, timeZone: TimeZone) -> String {
        let lastInstant = until.overdueFrom(in: timeZone).addingTimeInterval(-1)
        switch due {
        case .day:
            if case .day(let day) = until { return InterchangeDates.compact(day) }
            return InterchangeDates.compact(CalendarDay(lastInstant, in: timeZone))
        case .moment:
            let time = TimeOfDay(lastInstant, in: timeZone)
            func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
            return InterchangeDates.compact(CalendarDay(lastInstant, in: timeZone)) + "T" + two(time.hour) + two(time.minute) + two(time.second)
        }
    }

    /// The `until` an `UNTIL` value says, the inverse of `untilValue`: a
    /// DATE is that day; a DATE-TIME (UTC, or floating in `timeZone`) the
    /// second after it, as todod's `until` moment is the first excluded.
    static func until(fromValue text: String, timeZone: TimeZone) -> DueDate? {
        guard let (day, time, zone) = InterchangeDates.dateTimeParts(text.trimmingWhitespace()) else { return nil }
        guard let time else { return .day(day) }
        let clock = zone == "Z" ? TimeZone(identifier: "UTC")! : timeZone
        return .moment(InterchangeDates.local(day, hour: time.hour, minute: time.minute, second: time.second, in: clock).addingTimeInterval(1))
    }

    /// The month-end anchor a rule's `BYMONTHDAY` (with `BYSETPOS`) names, as
    /// `rule(of:due:)` writes it: `-1` alone is the 31st; 28 up to a day from
    /// 29 to 31 with `BYSETPOS=-1` is that day. Nil for anything else.
    static func monthEndAnchor(byMonthDay: String, bySetPosition: String?) -> Int? {
        if byMonthDay == "-1", bySetPosition == nil || bySetPosition == "-1" { return 31 }
        guard bySetPosition == "-1" else { return nil }
        let days = byMonthDay.split(separator: ",").compactMap { Int($0) }
        guard let last = days.last, (29...31).contains(last), days == Array(28...last) else { return nil }
        return last
    }
}
