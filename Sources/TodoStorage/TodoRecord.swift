import Foundation
import GRDB
import GRDBSQLite
import TodoModel

/// The row of the `item` table. Kept apart from `TodoItem` so the model module
/// does not depend on GRDB. Written and read by hand-made statements (see
/// `bind(_:to:)` and `init(row:of:)`), not GRDB's record protocols: on every
/// commit and at start-up those cost more than the rest of the work. A
/// commit binds the item's values straight to the statement; the record is
/// what a row is read into.
struct TodoRecord {

    var id: Int64
    var title: String
    var isDone: Bool
    var createdAt: Date
    var updatedAt: Date
    var completedAt: Date?
    var dueDay: String?
    var dueAt: Date?
    /// JSON array, or nil for no tags.
    var tags: String?
    var project: String?
    var priority: String?
    /// JSON array of notes, or nil for none.
    var notes: String?
    var waitDay: String?
    var waitAt: Date?
    var recurrence: String?
    /// JSON object, or nil when no field has changed since creation.
    var fieldChangedAt: String?
    var externalID: String?
    /// JSON object, or nil when the item keeps nothing of other programs'.
    var foreignFields: String?
    /// The declared fields' values as a JSON object, or nil for none.
    var fieldValues: String?

    /// The JSON of the columns that hold several values. Dates in them are
    /// JSON numbers (Foundation's default), which read back exactly.
    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    private static let decoder = JSONDecoder()

    /// The columns `init(row:of:)` reads, in its order.
    static let selection = """
        id, title, isDone, createdAt, updatedAt, completedAt, dueDay, dueAt, \
        tags, project, priority, notes, waitDay, waitAt, recurrence, fieldChangedAt, externalID, foreignFields, \
        fieldValues
        """

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
        tags = try row.decode(atIndex: 8)
        project = try row.decode(atIndex: 9)
        priority = try row.decode(atIndex: 10)
        notes = try row.decode(atIndex: 11)
        waitDay = try row.decode(atIndex: 12)
        waitAt = try date(13)
        recurrence = try row.decode(atIndex: 14)
        fieldChangedAt = try row.decode(atIndex: 15)
        externalID = try row.decode(atIndex: 16)
        foreignFields = try row.decode(atIndex: 17)
        fieldValues = try row.decode(atIndex: 18)
    }

    /// The item the row holds. A value that cannot be read (a JSON column
    /// that is not what this version writes, an unknown priority or
    /// repetition) throws, naming the item and the column: the load fails
    /// rather than dropping a field silently.
    func item() throws -> TodoItem {
        func failure(_ column: String, _ value: String) -> DatabaseError {
            DatabaseError(message: "item \(id): column \(column) holds \(value.debugDescription), which todod cannot read")
        }
        func decoded<T: Decodable>(_ type: T.Type, _ column: String, _ text: String?) throws -> T? {
            guard let text else { return nil }
            do { return try Self.decoder.decode(T.self, from: Data(text.utf8)) } catch { throw failure(column, text) }
        }
        func date(day: String?, at moment: Date?) -> DueDate? {
            if let moment { .moment(moment) } else if let day = day.flatMap(CalendarDay.init(iso:)) { .day(day) } else { nil }
        }
        var priority: Priority?
        if let letter = self.priority {
            guard let known = Priority(letter: letter) else { throw failure("priority", letter) }
            priority = known
        }
        var recurrence: Recurrence?
        if let text = self.recurrence {
            guard let known = Recurrence(text) else { throw failure("recurrence", text) }
            recurrence = known
        }
        return TodoItem(
            id: TodoID(id), title: title, isDone: isDone, createdAt: createdAt,
            updatedAt: updatedAt, completedAt: completedAt, due: date(day: dueDay, at: dueAt),
            tags: Set(try decoded([String].self, "tags", tags) ?? []), project: project, priority: priority,
            notes: try decoded([TodoNote].self, "notes", notes) ?? [], wait: date(day: waitDay, at: waitAt),
            recurrence: recurrence, values: try decoded([String: FieldValue].self, "fieldValues", fieldValues) ?? [:],
            fieldChangedAt: try decoded([ItemField: Date].self, "fieldChangedAt", fieldChangedAt) ?? [:],
            externalID: externalID,
            foreign: try decoded(ForeignFields.self, "foreignFields", foreignFields) ?? ForeignFields()
        )
    }
}
