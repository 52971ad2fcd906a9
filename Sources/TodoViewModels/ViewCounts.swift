import Foundation
import TodoModel

/// A view's counters, over the items its query matches whatever its
/// filter (as TodoMVC's "2 items left" counts the whole list while only
/// completed items are shown). Kept up to date one item change at a time:
/// `count(_:by:)` with +1 for the state an item enters and -1 for the one it leaves.
struct ViewCounts: Equatable {
    var total = 0
    var completed = 0
    var overdue = 0
    var dueToday = 0
    /// Items not done, by tag folded to lower case.
    var tags: [String: Int] = [:]
    /// Items not done, by project as written.
    var projects: [String: Int] = [:]

    var active: Int { total - completed }

    /// Adds (`sign` 1) or takes away (-1) what `item` counts for, at `clock`'s moment.
    mutating func count(_ item: TodoItem, by sign: Int, clock: ViewClock) {
        let (now, today, timeZone) = (clock.now, clock.today, clock.timeZone)
        total += sign
        if item.isDone {
            completed += sign
            return
        }
        if item.isOverdue(at: now, in: timeZone) { overdue += sign }
        if let due = item.due, Self.dayNumber(of: due, timeZone: timeZone) == today { dueToday += sign }
        for tag in item.tags {
            let key = tag.lowercased()
            tags[key, default: 0] += sign
            if tags[key] == 0 { tags[key] = nil }
        }
        if let project = item.project {
            projects[project, default: 0] += sign
            if projects[project] == 0 { projects[project] = nil }
        }
    }

    static func dayNumber(of due: DueDate, timeZone: TimeZone) -> Int {
        switch due {
        case .day(let day): day.dayNumber
        case .moment(let date): CalendarDay.dayNumber(of: date, in: timeZone)
        }
    }
}
