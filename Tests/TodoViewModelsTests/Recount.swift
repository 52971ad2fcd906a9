import Foundation
import TodoModel
import TodoViewModels
import TodoViewState

/// A view's counters and rows worked out from scratch, from every item and
/// the view's definition, by the rules the properties' documentation states.
///
/// The view model keeps its counters up to date one item change (or one
/// tick) at a time; comparing them with this recount after every step is
/// what proves that no change is counted twice or missed.
struct Recount: Equatable, CustomStringConvertible {
    var totalCount = 0
    var completedCount = 0
    var activeCount = 0
    var itemsLeft = ""
    var overdueCount = 0
    var dueTodayCount = 0
    var tagCounts: [NameCount] = []
    var projectCounts: [NameCount] = []
    /// The ids of the rows, in no particular order (the order is checked apart).
    var rowIDs: Set<Int64> = []

    /// What the view model says, in the same terms.
    init(_ state: TodoListState) {
        let properties = state.properties
        totalCount = properties.totalCount
        completedCount = properties.completedCount
        activeCount = properties.activeCount
        itemsLeft = properties.itemsLeft
        overdueCount = properties.overdueCount
        dueTodayCount = properties.dueTodayCount
        tagCounts = properties.tagCounts
        projectCounts = properties.projectCounts
        rowIDs = Set(state.rows.map(\.id))
    }

    /// What it should say: the query matches an item, and the item is not
    /// waiting unless the query names a status; the counters count those
    /// whatever the filter, the rows show those the filter lets through.
    init(items: [TodoItem], definition: ViewDefinition, now: Date, timeZone: TimeZone) throws {
        let dates = NaturalDateParser(now: now, timeZone: timeZone)
        let compiled = try definition.query.compile(resolvingDates: { try dates.parse($0) }, timeZone: timeZone, now: now)
        let today = CalendarDay(now, in: timeZone)
        var tags: [String: Int] = [:]
        var projects: [String: Int] = [:]
        for item in items where compiled.matches(item) {
            if !definition.query.mentionsStatus && item.isWaiting(at: now, in: timeZone) { continue }
            totalCount += 1
            switch definition.filter {
            case .all: rowIDs.insert(item.id.rawValue)
            case .active: if !item.isDone { rowIDs.insert(item.id.rawValue) }
            case .completed: if item.isDone { rowIDs.insert(item.id.rawValue) }
            }
            if item.isDone {
                completedCount += 1
                continue
            }
            if item.isOverdue(at: now, in: timeZone) { overdueCount += 1 }
            switch item.due {
            case .day(let day)?: if day == today { dueTodayCount += 1 }
            case .moment(let moment)?: if CalendarDay(moment, in: timeZone) == today { dueTodayCount += 1 }
            case nil: break
            }
            for tag in item.tags { tags[tag.lowercased(), default: 0] += 1 }
            if let project = item.project { projects[project, default: 0] += 1 }
        }
        activeCount = totalCount - completedCount
        itemsLeft = activeCount == 1 ? "1 item left" : "\(activeCount) items left"
        tagCounts = tags.map { NameCount(name: $0.key, count: $0.value) }.sorted { $0.name < $1.name }
        projectCounts = projects.map { NameCount(name: $0.key, count: $0.value) }.sorted { $0.name < $1.name }
    }

    var description: String {
        let tags = tagCounts.map { "\($0.name)=\($0.count)" }.joined(separator: ",")
        let projects = projectCounts.map { "\($0.name)=\($0.count)" }.joined(separator: ",")
        return "total \(totalCount) done \(completedCount) active \(activeCount) (\(itemsLeft)) overdue \(overdueCount) "
            + "today \(dueTodayCount) tags [\(tags)] projects [\(projects)] rows \(rowIDs.sorted())"
    }
}
