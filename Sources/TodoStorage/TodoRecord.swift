import Foundation
import GRDB
import TodoModel

/// The row of the `item` table. Kept apart from `TodoItem` so the model module
/// does not depend on GRDB.
struct TodoRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "item"

    var id: Int64?
    var title: String
    var isDone: Bool
    var createdAt: Date
    var updatedAt: Date
    var completedAt: Date?

    init(title: String, createdAt: Date) {
        self.title = title
        self.isDone = false
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }

    init(_ item: TodoItem) {
        id = item.id.rawValue
        title = item.title
        isDone = item.isDone
        createdAt = item.createdAt
        updatedAt = item.updatedAt
        completedAt = item.completedAt
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var item: TodoItem {
        TodoItem(
            id: TodoID(id ?? 0),
            title: title,
            isDone: isDone,
            createdAt: createdAt,
            updatedAt: updatedAt,
            completedAt: completedAt
        )
    }
}
