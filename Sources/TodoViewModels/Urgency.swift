import FoundationEssentials
import TodoModel

/// How pressing an item is, as one number: what the `urgency` sort orders
/// by, highest first. Like Taskwarrior's urgency, but with fewer terms, each
/// of which a person can check by hand:
///
/// | term | adds |
/// |---|---|
/// | priority | H 6, M 3.9, L 1.8 |
/// | due | overdue 12; due today 10; due in d days (1…14) 10 − 0.5 d; later 2.4 |
/// | age | 0.01 per day since it was added, at most 2 (after 200 days) |
/// | tags | 0.8 for one, 0.9 for two, 1 for three or more |
/// | project | 1 when it has one |
/// | waiting | −3 while its wait date is ahead |
/// | blocking | 8 while an open item depends on it |
/// | blocked | −5 while it depends on an open item |
///
/// A done item scores 0. The score is counted in whole days from `today`,
/// so it changes only when the day does, and sorted views stay in order
/// between midnights.
public enum Urgency {
    /// The blocking and blocked terms are Taskwarrior's own coefficients
    /// (`urgency.blocking.coefficient` 8, `urgency.blocked.coefficient` −5).
    public static func score(of item: TodoItem, today: Int, timeZone: TimeZone, facts: LinkFacts = .none) -> Double {
        guard !item.isDone else { return 0 }
        var score = 0.0
        switch item.priority {
        case .high?: score += 6
        case .medium?: score += 3.9
        case .low?: score += 1.8
        case nil: break
        }
        if let due = item.due {
            let days = dayNumber(of: due, timeZone: timeZone) - today
            score += days < 0 ? 12 : days == 0 ? 10 : days <= 14 ? 10 - 0.5 * Double(days) : 2.4
        }
        let age = today - CalendarDay.dayNumber(of: item.createdAt, in: timeZone)
        score += min(2, Double(max(0, age)) * 0.01)
        switch item.tags.count {
        case 0: break
        case 1: score += 0.8
        case 2: score += 0.9
        default: score += 1
        }
        if item.project != nil { score += 1 }
        if let wait = item.wait, dayNumber(of: wait, timeZone: timeZone) > today { score -= 3 }
        if facts.blocking { score += 8 }
        if facts.blocked { score -= 5 }
        return (score * 100).rounded() / 100
    }

    private static func dayNumber(of date: DueDate, timeZone: TimeZone) -> Int {
        switch date {
        case .day(let day): day.dayNumber
        case .moment(let instant): CalendarDay.dayNumber(of: instant, in: timeZone)
        }
    }
}
