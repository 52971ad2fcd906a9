import Foundation
import GRDB
import TodoModel

/// The row of the `item` table. Kept apart from `TodoItem` so the model module
/// does not depend on GRDB.
struct TodoRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "item"

    var id: Int64
    var title: String
    var isDone: Bool
    var createdAt: Date
    var updatedAt: Date
    var completedAt: Date?
    var dueDay: String?
    var dueAt: Date?

    init(_ item: TodoItem) {
        id = item.id.rawValue
        title = item.title
        isDone = item.isDone
        createdAt = item.createdAt
        updatedAt = item.updatedAt
        completedAt = item.completedAt
        switch item.due {
        case .day(let day)?: dueDay = day.description
        case .moment(let date)?: dueAt = date
        case nil: break
        }
    }

    var item: TodoItem {
        let due: DueDate? =
            if let dueAt { .moment(dueAt) } else if let day = dueDay.flatMap(CalendarDay.init(iso:)) { .day(day) } else { nil }
        return TodoItem(
            id: TodoID(id), title: title, isDone: isDone, createdAt: createdAt,
            updatedAt: updatedAt, completedAt: completedAt, due: due
        )
    }
}
