import FoundationEssentials
import TodoModel
import TodoViewState

/// A view's counters, over the items its query matches whatever its
/// filter (as TodoMVC's "2 items left" counts the whole list while only
/// completed items are shown). Kept up to date one item change at a time:
/// `count(_:by:)` with +1 for the state an item enters and -1 for the one it leaves.
struct ViewCounts: Equatable {
    var total = 0
    var completed = 0
    var overdue = 0
    var dueToday = 0
    /// Items not done, by tag folded to lower case; by tag, A to Z.
    /// Kept in the order the view's properties list them, so that reading
    /// them (twice per view on every edit) sorts nothing.
    var tags: [NameCount] = []
    /// Items not done, by project as written; by project, A to Z.
    var projects: [NameCount] = []

    var active: Int { total - completed }

    /// Adds (`sign` 1) or takes away (-1) what `item` counts for, at `clock`'s moment.
    mutating func count(_ item: TodoItem, by sign: Int, clock: ViewClock) {
        total += sign
        if item.isDone {
            completed += sign
            return
        }
        countDates(of: item, by: sign, clock: clock)
        for tag in item.tags { Self.add(sign, to: NameCase.lowercased(tag), in: &tags) }
        if let project = item.project { Self.add(sign, to: project, in: &projects) }
    }

    /// The counters of many items at once (a view being built): tags and
    /// projects are counted by name, and put in order once, by `counts`.
    struct Tally {
        private var counts = ViewCounts()
        private var tags: [String: Int] = [:]
        private var projects: [String: Int] = [:]
        let clock: ViewClock

        init(clock: ViewClock) { self.clock = clock }

        mutating func add(_ item: TodoItem) {
            counts.total += 1
            if item.isDone {
                counts.completed += 1
                return
            }
            counts.countDates(of: item, by: 1, clock: clock)
            for tag in item.tags { tags[NameCase.lowercased(tag), default: 0] += 1 }
            if let project = item.project { projects[project, default: 0] += 1 }
        }

        var result: ViewCounts {
            var result = counts
            result.tags = tags.map { NameCount(name: $0.key, count: $0.value) }.sorted { $0.name < $1.name }
            result.projects = projects.map { NameCount(name: $0.key, count: $0.value) }.sorted { $0.name < $1.name }
            return result
        }
    }

    /// The overdue and due-today counters of an item not done.
    fileprivate mutating func countDates(of item: TodoItem, by sign: Int, clock: ViewClock) {
        guard let due = item.due else { return }
        // `item.isOverdue(at:in:)` with today's day number already known.
        switch due {
        case .day(let day): if clock.today > day.dayNumber { overdue += sign }
        case .moment(let date): if clock.now >= date { overdue += sign }
        }
        if Self.dayNumber(of: due, timeZone: clock.timeZone) == clock.today { dueToday += sign }
    }

    /// Adds `sign` to the count of `name` in `counts` (sorted by name),
    /// removing a count that reaches 0.
    private static func add(_ sign: Int, to name: String, in counts: inout [NameCount]) {
        var low = 0
        var high = counts.count
        while low < high {
            let middle = (low + high) / 2
            if counts[middle].name < name { low = middle + 1 } else { high = middle }
        }
        if low < counts.count && counts[low].name == name {
            counts[low].count += sign
            if counts[low].count == 0 { counts.remove(at: low) }
        } else {
            counts.insert(NameCount(name: name, count: sign), at: low)
        }
    }

    static func dayNumber(of due: DueDate, timeZone: TimeZone) -> Int {
        switch due {
        case .day(let day): day.dayNumber
        case .moment(let date): CalendarDay.dayNumber(of: date, in: timeZone)
        }
    }
}
