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
        let unsupported = Set(parts.keys).subtracting(["FREQ", "INTERVAL", "BYDAY", "WKST", "BYMONTHDAY", "BYMONTH"])
        func refusal(_ why: String) -> Result<Recurrence, ImportProblem> {
            .failure(ImportProblem(location: "", message: "repetition \(ImportFields.shown(rule)) left out: \(why)"))
        }
        if !unsupported.isEmpty { return refusal("todod has no \(unsupported.sorted().joined(separator: ", "))") }
        if let day = parts["BYMONTHDAY"], Int(day) != due?.day {
            return refusal("todod repeats on the due date's day of the month")
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
        do { return .success(try Recurrence(.every(interval, unit))) } catch { return refusal(error.message) }
    }

    static func rule(of recurrence: Recurrence) -> String {
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
            return "FREQ=\(frequency)" + (count == 1 ? "" : ";INTERVAL=\(count)")
        }
    }
}
