import Foundation
import GRDB
import TodoModel

/// The SQLite store: one database file in WAL mode, written through GRDB.
///
/// Durability is the point of this type. GRDB opens WAL databases with
/// `synchronous = NORMAL`, which may lose the last transactions on power loss;
/// todod replies to an edit only after it is stored, so the store switches to
/// `synchronous = FULL`: every commit is synced before the call returns.
public final class SQLiteTodoStore: TodoStore {
    private let database: DatabaseQueue

    /// Opens (creating if needed) the database at `path` and migrates it.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.label = "todod"
        database = try DatabaseQueue(path: path, configuration: configuration)
        try database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        try TodoSchema.migrator.migrate(database)
    }

    /// Opens a private in-memory database, migrated like a file would be.
    /// Real SQLite, no file: for tests of the layers above.
    public init() throws {
        database = try DatabaseQueue()
        try TodoSchema.migrator.migrate(database)
    }

    public func allItems() throws -> [TodoItem] {
        try database.read { db in
            try TodoRecord.order(Column("id")).fetchAll(db).map(\.item)
        }
    }

    public func insertItem(title: String, createdAt: Date) throws -> TodoItem {
        try database.write { db in
            var record = TodoRecord(title: title, createdAt: createdAt)
            try record.insert(db)
            return record.item
        }
    }

    public func updateItem(_ item: TodoItem) throws {
        try database.write { db in
            do {
                try TodoRecord(item).update(db)
            } catch RecordError.recordNotFound {
                throw TodoError.notFound(item.id)
            }
        }
    }

    public func deleteItem(id: TodoID) throws {
        try database.write { db in
            guard try TodoRecord.deleteOne(db, key: id.rawValue) else {
                throw TodoError.notFound(id)
            }
        }
    }

    /// Moves everything in the write-ahead log into the main database file and
    /// truncates the log, so the file on disk is complete on its own. Called on
    /// shutdown.
    public func checkpoint() throws {
        try database.writeWithoutTransaction { db in
            _ = try db.checkpoint(.truncate)
        }
    }

    /// Closes the database. Later calls fail.
    public func close() throws {
        try database.close()
    }
}
