import Foundation
import GRDB
import GRDBSQLite
import TodoModel

/// The row of the `item` table. Kept apart from `TodoItem` so the model module
/// does not depend on GRDB. Written and read by hand-made statements (see
/// `save` and `init(row:of:)`), not GRDB's record protocols: on every commit
/// and at start-up those cost more than the rest of the work.
struct TodoRecord {

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

    /// Inserts the row, or replaces the one with its id. A cached statement
    /// with the dates written by `StoredDateText`: this runs once per changed
    /// item on every commit, where GRDB's generic `upsert` (SQL built anew,
    /// dates through a `DateFormatter`) cost several times the write itself.
    func save(_ db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO item (id, title, isDone, createdAt, updatedAt, completedAt, dueDay, dueAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET title = excluded.title, isDone = excluded.isDone,
                    createdAt = excluded.createdAt, updatedAt = excluded.updatedAt,
                    completedAt = excluded.completedAt, dueDay = excluded.dueDay, dueAt = excluded.dueAt
                """)
        try statement.execute(
            arguments: [
                id, title, isDone, StoredDateText.databaseValue(createdAt), StoredDateText.databaseValue(updatedAt),
                completedAt.map(StoredDateText.databaseValue), dueDay, dueAt.map(StoredDateText.databaseValue),
            ])
    }

    /// The columns `init(row:of:)` reads, in its order.
    static let selection = "id, title, isDone, createdAt, updatedAt, completedAt, dueDay, dueAt"

    /// Reads a row selected with `selection` by column index, and its dates
    /// straight from SQLite's text with `StoredDateText`: at start-up this
    /// runs for every item, where GRDB's Codable decoding cost most of the
    /// load. `row` must be the current row of `statement` (a cursor's row):
    /// its dates are read from the statement. A value that is not what its
    /// column should hold throws (naming it), as GRDB's decoding did.
    init(row: Row, of statement: Statement) throws {
        let raw = statement.sqliteStatement
        func date(_ index: Int32) throws -> Date? {
            switch sqlite3_column_type(raw, index) {
            case SQLITE_NULL:
                return nil
            case SQLITE_TEXT:
                let text = UnsafeRawBufferPointer(
                    start: sqlite3_column_text(raw, index), count: Int(sqlite3_column_bytes(raw, index)))
                // Any form StoredDateText does not write is left to GRDB.
                return try StoredDateText.date(fromText: text) ?? row.decode(Date?.self, atIndex: Int(index))
            default:
                return try row.decode(Date?.self, atIndex: Int(index))
            }
        }
        func required(_ index: Int32) throws -> Date {
            guard let date = try date(index) else {
                throw DatabaseError(message: "item \(row[0] as Int64? ?? 0): column \(Array(row.columnNames)[Int(index)]) holds no date")
            }
            return date
        }
        id = try row.decode(atIndex: 0)
        title = try row.decode(atIndex: 1)
        isDone = try row.decode(atIndex: 2)
        createdAt = try required(3)
        updatedAt = try required(4)
        completedAt = try date(5)
        dueDay = try row.decode(atIndex: 6)
        dueAt = try date(7)
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
