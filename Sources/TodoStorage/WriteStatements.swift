import Foundation
import GRDB
import GRDBSQLite
import TodoModel

/// The statements every commit runs, prepared once on the store's
/// connection and bound column by column through SQLite's C interface.
///
/// A durable `todo.add` stores one item and one undo step. Through GRDB's
/// generic path each statement was found again in its cache by its SQL text
/// (hashing a statement of 900 characters), its arguments boxed as
/// `DatabaseValue`s in an array, and `BEGIN` and `COMMIT` parsed afresh on
/// every commit; together that cost more than SQLite's own work. Here the
/// statements are kept by kind, values are bound straight from the item
/// (dates formatted into a buffer on the stack), and the transaction is begun
/// and committed with prepared statements too.
///
/// Only the store's writes use them, always inside `DatabaseQueue.write…`,
/// which runs one closure at a time: that is what makes the unchecked
/// `Sendable` safe. They are finalized before the connection closes.
final class WriteStatements: @unchecked Sendable {
    enum Kind: Int, CaseIterable {
        case begin, commit, rollback, savepoint, releaseSavepoint, rollbackToSavepoint
        case upsertItem, deleteItem, raiseHighestItemID, clearRedo, pushStep

        var sql: String {
            switch self {
            case .begin: "BEGIN IMMEDIATE"
            case .commit: "COMMIT"
            case .rollback: "ROLLBACK"
            case .savepoint: "SAVEPOINT write"
            case .releaseSavepoint: "RELEASE SAVEPOINT write"
            case .rollbackToSavepoint: "ROLLBACK TO SAVEPOINT write"
            case .upsertItem: TodoRecord.upsertSQL
            case .deleteItem: "DELETE FROM item WHERE id = ?"
            case .raiseHighestItemID: "UPDATE listIdentity SET highestItemID = ?1 WHERE id = 1 AND highestItemID < ?1"
            case .clearRedo: "DELETE FROM historyStep WHERE stack = 'redo'"
            case .pushStep: "INSERT INTO historyStep (stack, step) VALUES ('undo', ?)"
            }
        }
    }

    private var statements: [OpaquePointer?] = Array(repeating: nil, count: Kind.allCases.count)
    /// The connection they were prepared on.
    private var connection: OpaquePointer?

    /// The statement of `kind` on `db`'s connection, prepared the first time.
    func statement(_ kind: Kind, _ db: Database) throws -> OpaquePointer {
        guard let sqlite = db.sqliteConnection else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the database is closed") }
        if connection != sqlite {
            finalizeAll()
            connection = sqlite
        }
        if let statement = statements[kind.rawValue] { return statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(sqlite, kind.sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite)), sql: kind.sql)
        }
        statements[kind.rawValue] = statement
        return statement
    }

    /// Runs the statement of `kind`, which returns no rows, with what `bind` binds.
    func run(_ kind: Kind, _ db: Database, bind: (OpaquePointer) throws -> Void = { _ in }) throws {
        let statement = try statement(kind, db)
        try bind(statement)
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(connection))
            sqlite3_reset(statement)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: kind.sql)
        }
        sqlite3_reset(statement)
    }

    /// Finalizes every statement (before the connection closes).
    func finalizeAll() {
        for index in statements.indices {
            sqlite3_finalize(statements[index])
            statements[index] = nil
        }
        connection = nil
    }

    deinit { finalizeAll() }
}

/// Binding values to a prepared statement, by parameter number (from 1).
enum Bind {
    /// SQLite copies the bytes before the call returns.
    static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    static func int(_ statement: OpaquePointer, _ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(statement, index, value)
    }

    static func null(_ statement: OpaquePointer, _ index: Int32) {
        sqlite3_bind_null(statement, index)
    }

    static func text(_ statement: OpaquePointer, _ index: Int32, _ value: String?) {
        guard var value else { return null(statement, index) }
        _ = value.withUTF8 { utf8 in
            if let base = utf8.baseAddress {
                sqlite3_bind_text(statement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(utf8.count), transient)
            } else {
                sqlite3_bind_text(statement, index, "", 0, transient)  // "" (a nil pointer would bind NULL)
            }
        }
    }

    static func blob(_ statement: OpaquePointer, _ index: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { raw in
            // A zero-length blob, not NULL, for an empty array.
            sqlite3_bind_blob(statement, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), transient)
        }
    }

    /// A date as `StoredDateText` writes it (GRDB's text form), bound at
    /// `index` and, if given, at `sameAt` too: formatted once for two
    /// columns that hold the same instant (a new item's creation and last
    /// change), as formatting is most of binding a date.
    static func date(_ statement: OpaquePointer, _ index: Int32, _ value: Date?, sameAt second: Int32? = nil) {
        guard let value else {
            null(statement, index)
            if let second { null(statement, second) }
            return
        }
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: StoredDateText.length) { buffer -> Bool in
            guard let base = buffer.baseAddress, StoredDateText.write(value, into: base) else { return false }
            let text = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
            sqlite3_bind_text(statement, index, text, Int32(StoredDateText.length), transient)
            if let second { sqlite3_bind_text(statement, second, text, Int32(StoredDateText.length), transient) }
            return true
        }
        if !written {
            // Years outside 1000–9999: GRDB's own text, as before.
            let text: String? = if case .string(let text) = StoredDateText.databaseValue(value).storage { text } else { nil }
            Self.text(statement, index, text)
            if let second { Self.text(statement, second, text) }
        }
    }
}

extension TodoRecord {
    static let upsertSQL = """
        INSERT INTO item (id, title, isDone, createdAt, updatedAt, completedAt, dueDay, dueAt,
            tags, project, priority, notes, waitDay, waitAt, recurrence, fieldChangedAt, externalID, foreignFields,
            fieldValues)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET title = excluded.title, isDone = excluded.isDone,
            createdAt = excluded.createdAt, updatedAt = excluded.updatedAt,
            completedAt = excluded.completedAt, dueDay = excluded.dueDay, dueAt = excluded.dueAt,
            tags = excluded.tags, project = excluded.project, priority = excluded.priority,
            notes = excluded.notes, waitDay = excluded.waitDay, waitAt = excluded.waitAt,
            recurrence = excluded.recurrence, fieldChangedAt = excluded.fieldChangedAt,
            externalID = excluded.externalID, foreignFields = excluded.foreignFields,
            fieldValues = excluded.fieldValues
        """

    /// Binds `item`'s columns to the statement of `upsertSQL`, the same
    /// values `init(_:)` and `save` write, without building the record: the
    /// columns that are empty for most items are bound NULL at once, and
    /// tags (the common one of the JSON columns) are written by hand.
    static func bind(_ item: TodoItem, to statement: OpaquePointer) throws {
        Bind.int(statement, 1, item.id.rawValue)
        Bind.text(statement, 2, item.title)
        Bind.int(statement, 3, item.isDone ? 1 : 0)
        if item.updatedAt == item.createdAt {
            Bind.date(statement, 4, item.createdAt, sameAt: 5)  // a new item's
        } else {
            Bind.date(statement, 4, item.createdAt)
            Bind.date(statement, 5, item.updatedAt)
        }
        Bind.date(statement, 6, item.completedAt)
        switch item.due {
        case .day(let day)?:
            Bind.text(statement, 7, day.description)
            Bind.null(statement, 8)
        case .moment(let date)?:
            Bind.null(statement, 7)
            Bind.date(statement, 8, date)
        case nil:
            Bind.null(statement, 7)
            Bind.null(statement, 8)
        }
        Bind.text(statement, 9, item.tags.isEmpty ? nil : tagsJSON(item.sortedTags))
        Bind.text(statement, 10, item.project)
        Bind.text(statement, 11, item.priority?.letter)
        Bind.text(statement, 12, item.notes.isEmpty ? nil : try json(item.notes))
        switch item.wait {
        case .day(let day)?:
            Bind.text(statement, 13, day.description)
            Bind.null(statement, 14)
        case .moment(let date)?:
            Bind.null(statement, 13)
            Bind.date(statement, 14, date)
        case nil:
            Bind.null(statement, 13)
            Bind.null(statement, 14)
        }
        Bind.text(statement, 15, item.recurrence?.text)
        Bind.text(statement, 16, item.fieldChangedAt.isEmpty ? nil : try json(item.fieldChangedAt))
        Bind.text(statement, 17, item.externalID)
        Bind.text(statement, 18, item.foreign.isEmpty ? nil : try json(item.foreign))
        Bind.text(statement, 19, item.values.isEmpty ? nil : try json(item.values))
    }

    /// A JSON array of strings, as `JSONDecoder` reads it back (`"`, `\` and
    /// control characters escaped; everything else as it is).
    static func tagsJSON(_ tags: [String]) -> String {
        var json = "["
        for (index, tag) in tags.enumerated() {
            if index > 0 { json += "," }
            json += "\""
            for scalar in tag.unicodeScalars {
                switch scalar {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: json.unicodeScalars.append(scalar)
                }
            }
            json += "\""
        }
        return json + "]"
    }
}
