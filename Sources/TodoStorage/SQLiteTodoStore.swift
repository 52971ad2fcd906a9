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
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }()
    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()

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

    public func load() throws -> StoredState {
        try database.read { db in
            let items = try TodoRecord.order(Column("id")).fetchAll(db).map(\.item)
            let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'item'") ?? 0
            let steps = try Row.fetchAll(db, sql: "SELECT stack, step FROM historyStep ORDER BY seq")
            var undo: [UndoStep] = []
            var redo: [UndoStep] = []
            for row in steps {
                let step = try Self.decoder.decode(UndoStep.self, from: Data((row["step"] as String).utf8))
                if (row["stack"] as String) == "undo" { undo.append(step) } else { redo.append(step) }
            }
            var views: [String: ViewSettings] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, filter, sort FROM viewSetting") {
                views[row["name"]] = ViewSettings(filter: row["filter"], sort: row["sort"])
            }
            let fired = try Row.fetchAll(db, sql: "SELECT itemID, condition FROM firedReminder").map {
                ReminderKey(itemID: TodoID($0["itemID"] as Int64), condition: $0["condition"])
            }
            return StoredState(
                items: items,
                nextID: TodoID(sequence + 1),
                history: UndoHistory(undoSteps: undo, redoSteps: redo),
                viewSettings: views,
                firedReminders: Set(fired)
            )
        }
    }

    public func commit(_ write: StoreWrite) throws {
        try database.write { db in
            for change in write.changes {
                if let after = change.after {
                    try TodoRecord(after).upsert(db)
                } else {
                    try TodoRecord.deleteOne(db, key: change.id.rawValue)
                }
            }
            switch write.historyChange {
            case .record(let step)?:
                try db.execute(sql: "DELETE FROM historyStep WHERE stack = 'redo'")
                try push(step, onto: "undo", db)
                try db.execute(
                    sql: """
                        DELETE FROM historyStep WHERE stack = 'undo' AND seq NOT IN
                        (SELECT seq FROM historyStep WHERE stack = 'undo' ORDER BY seq DESC LIMIT ?)
                        """,
                    arguments: [UndoHistory.limit])
            case .undo?:
                try move(from: "undo", to: "redo", db)
            case .redo?:
                try move(from: "redo", to: "undo", db)
            case nil:
                break
            }
            for (name, settings) in write.viewSettings {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO viewSetting (name, filter, sort) VALUES (?, ?, ?)",
                    arguments: [name, settings.filter, settings.sort])
            }
            for key in write.firedReminders {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO firedReminder (itemID, condition) VALUES (?, ?)",
                    arguments: [key.itemID.rawValue, key.condition])
            }
        }
    }

    private func push(_ step: UndoStep, onto stack: String, _ db: Database) throws {
        let json = String(decoding: try Self.encoder.encode(step), as: UTF8.self)
        try db.execute(sql: "INSERT INTO historyStep (stack, step) VALUES (?, ?)", arguments: [stack, json])
    }

    private func move(from source: String, to destination: String, _ db: Database) throws {
        guard let row = try Row.fetchOne(db, sql: "SELECT seq, step FROM historyStep WHERE stack = ? ORDER BY seq DESC LIMIT 1", arguments: [source])
        else { return }
        try db.execute(sql: "DELETE FROM historyStep WHERE seq = ?", arguments: [row["seq"] as Int64])
        try db.execute(sql: "INSERT INTO historyStep (stack, step) VALUES (?, ?)", arguments: [destination, row["step"] as String])
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
