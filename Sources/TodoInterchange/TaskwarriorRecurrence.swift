import TodoModel

/// Taskwarrior's `recur` values, read into todod's repetitions and written
/// from them. Taskwarrior takes a duration (`3d`, `2w`, `6mo`, `1y`, `weekly`,
/// `biweekly`, `quarterly`, …); todod's "from completion" has no Taskwarrior
/// form, so an export also writes todod's own text (`todod_recur`), which
/// Taskwarrior keeps as an attribute it does not know and a re-import prefers.
enum TaskwarriorRecurrence {
    static func read(_ text: String) -> Recurrence? {
        let word = text.lowercased().trimmingWhitespace()
        let named: [String: Recurrence.Period] = [
            "daily": .every(1, .day), "day": .every(1, .day), "weekdays": .weekdays,
            "weekly": .every(1, .week), "week": .every(1, .week), "biweekly": .every(2, .week),
            "fortnight": .every(2, .week), "monthly": .every(1, .month), "month": .every(1, .month),
            "bimonthly": .every(2, .month), "quarterly": .every(3, .month), "semiannual": .every(6, .month),
            "annual": .every(1, .year), "yearly": .every(1, .year), "year": .every(1, .year),
            "biannual": .every(2, .year), "biyearly": .every(2, .year),
        ]
        if let period = named[word] { return try? Recurrence(period) }
        let digits = word.prefix { $0.isASCIIDigit }
        let unitText = String(word.dropFirst(digits.count)).trimmingWhitespace()
        let count = digits.isEmpty ? 1 : Int(digits) ?? 0
        let units: [String: (Int, Recurrence.Unit)] = [
            "d": (1, .day), "day": (1, .day), "days": (1, .day),
            "w": (1, .week), "wk": (1, .week), "wks": (1, .week), "week": (1, .week), "weeks": (1, .week),
            "mo": (1, .month), "mos": (1, .month), "mth": (1, .month), "mths": (1, .month), "month": (1, .month),
            "months": (1, .month), "q": (3, .month), "qtr": (3, .month), "qtrs": (3, .month), "quarter": (3, .month),
            "quarters": (3, .month), "y": (1, .year), "yr": (1, .year), "yrs": (1, .year), "year": (1, .year),
            "years": (1, .year),
        ]
        // A count past todod's largest is refused before it can overflow.
        guard let (factor, unit) = units[unitText], count <= Recurrence.maximumCount else { return nil }
        return try? Recurrence(.every(count * factor, unit))
    }

    /// Taskwarrior's form of `recurrence`, without its anchor or "from completion".
    static func text(of recurrence: Recurrence) -> String {
        switch recurrence.period {
        case .weekdays: "weekdays"
        case .every(1, .day): "daily"
        case .every(1, .week): "weekly"
        case .every(1, .month): "monthly"
        case .every(1, .year): "yearly"
        case .every(let count, .day): "\(count)d"
        case .every(let count, .week): "\(count)w"
        case .every(let count, .month): "\(count)mo"
        case .every(let count, .year): "\(count)y"
        }
    }

    /// Whether Taskwarrior's form says all of `recurrence` (else todod's text goes along).
    static func isExact(_ recurrence: Recurrence) -> Bool {
        !recurrence.countsFromCompletion
    }
}
