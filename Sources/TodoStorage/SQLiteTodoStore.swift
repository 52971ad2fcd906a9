import Foundation
import GRDB
import GRDBSQLite
import Synchronization
import TodoModel

/// The SQLite store: one database file in WAL mode, written through GRDB.
///
/// Durability is the point of this type, and group commit is how it stays
/// fast. The database runs in WAL mode with `synchronous = NORMAL`: a commit
/// writes its frames to the write-ahead log (safe against a crash of todod,
/// not yet against power loss) and returns. `synchronize()` then fsyncs the
/// log once for every commit made before it, on another thread while the
/// next commits go on. todod acknowledges an edit only after such a sync, so
/// one fsync covers every edit that arrived meanwhile; the result is the same
/// durability as `synchronous = FULL` at a fraction of the syncs.
public final class SQLiteTodoStore: TodoStore {
    private let database: DatabaseQueue
    /// The write-ahead log's path (nil for an in-memory database).
    private let logPath: String?
    private let logDescriptor = Mutex<Int32>(-1)
    /// Set when `resumeRecord()` found a record: it goes with the next
    /// change (see `resumeRecord()`).
    private let resumeRecordToRetire = Mutex(false)
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
    ///
    /// A database that is already current is opened without writing
    /// anything, so todod starts (and serves reads) on a full disk: the WAL
    /// mode is set only on a new file, the migrator runs only when a
    /// migration is missing, and `synchronous` is a setting of the
    /// connection, not of the file. (GRDB's own WAL set-up is not used: it
    /// creates and drops a table whenever the log is empty.) A file that
    /// fails `DatabaseIntegrity.check` is not opened for writing at all.
    public init(path: String) throws {
        try DatabaseIntegrity.check(path: path)
        var configuration = Configuration()
        configuration.label = "todod"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try Self.keepLogFiles(db)
        }
        database = try DatabaseQueue(path: path, configuration: configuration)
        try database.writeWithoutTransaction { db in
            // Querying reads the file's header; only setting the mode writes.
            if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                try db.execute(sql: "PRAGMA journal_mode = WAL")
            }
        }
        if try !database.read(TodoSchema.migrator.hasCompletedMigrations) {
            try TodoSchema.migrator.migrate(database)
        }
        logPath = path + "-wal"
        try synchronize()
        // The log file's directory entry must be durable too.
        let directory = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            Glibc.close(directory)
        }
    }

    /// Keeps `-wal` and `-shm` when the database closes (SQLite deletes them
    /// by default). Reading a WAL database needs a `-shm` index of 32 KiB;
    /// created afresh at every start, it needs free space, and a full disk
    /// would stop todod from even reading its items. Kept, it is reused.
    private static func keepLogFiles(_ db: Database) throws {
        var keep: Int32 = 1
        let code = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &keep)
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
    }

    deinit {
        logDescriptor.withLock { if $0 >= 0 { Glibc.close($0) } }
    }

    /// Opens a private in-memory database, migrated like a file would be.
    /// Real SQLite, no file: for tests of the layers above.
    public init() throws {
        database = try DatabaseQueue()
        try TodoSchema.migrator.migrate(database)
        logPath = nil
    }

    /// Fsyncs the write-ahead log: every commit that returned before this
    /// call began is durable when it returns. Safe to call from any thread,
    /// also while another commits (the kernel syncs the file, whichever
    /// descriptor asks). A resume record read at start is removed first: a
    /// sync means a change is about to be announced.
    public func synchronize() throws {
        retireResumeRecord()
        guard let logPath else { return }
        try logDescriptor.withLock { descriptor in
            var status = stat()
            // The log is replaced only when the last connection closes; check anyway.
            if descriptor >= 0, fstat(descriptor, &status) != 0 || status.st_nlink == 0 {
                Glibc.close(descriptor)
                descriptor = -1
            }
            if descriptor < 0 {
                descriptor = open(logPath, O_RDONLY | O_CLOEXEC)
                if descriptor < 0 {
                    if errno == ENOENT { return }  // no log: every commit is in the database file
                    throw SyncError(path: logPath, code: errno)
                }
            }
            guard fsync(descriptor) == 0 else { throw SyncError(path: logPath, code: errno) }
        }
    }

    /// fsync failed: the disk did not confirm the data. Nothing written since
    /// the last good sync may be acknowledged.
    public struct SyncError: Error, CustomStringConvertible {
        public var path: String
        public var code: Int32
        public var description: String { "syncing \(path) failed: \(String(cString: strerror(code)))" }
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
        let removesResumeRecord = resumeRecordToRetire.withLock { $0 }
        try database.write { db in
            if removesResumeRecord { try Self.deleteResumeRecord(db) }
            for change in write.changes {
                if let after = change.after {
                    try TodoRecord(after).save(db)
                } else {
                    try db.cachedStatement(sql: "DELETE FROM item WHERE id = ?").execute(arguments: [change.id.rawValue])
                }
            }
            // Cached statements throughout: these run on every commit.
            switch write.historyChange {
            case .record(let step)?:
                try db.cachedStatement(sql: "DELETE FROM historyStep WHERE stack = 'redo'").execute()
                try push(step, onto: "undo", db)
                try db.cachedStatement(
                    sql: """
                        DELETE FROM historyStep WHERE stack = 'undo' AND seq NOT IN
                        (SELECT seq FROM historyStep WHERE stack = 'undo' ORDER BY seq DESC LIMIT ?)
                        """
                ).execute(arguments: [UndoHistory.limit])
            case .undo?:
                try move(from: "undo", to: "redo", db)
            case .redo?:
                try move(from: "redo", to: "undo", db)
            case nil:
                break
            }
            for (name, settings) in write.viewSettings {
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO viewSetting (name, filter, sort) VALUES (?, ?, ?)")
                    .execute(arguments: [name, settings.filter, settings.sort])
            }
            for key in write.firedReminders {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO firedReminder (itemID, condition) VALUES (?, ?)")
                    .execute(arguments: [key.itemID.rawValue, key.condition])
            }
        }
        if removesResumeRecord { resumeRecordToRetire.withLock { $0 = false } }
    }

    private func push(_ step: UndoStep, onto stack: String, _ db: Database) throws {
        let json = String(decoding: try Self.encoder.encode(step), as: UTF8.self)
        try db.cachedStatement(sql: "INSERT INTO historyStep (stack, step) VALUES (?, ?)").execute(arguments: [stack, json])
    }

    private func move(from source: String, to destination: String, _ db: Database) throws {
        guard let row = try Row.fetchOne(db, sql: "SELECT seq, step FROM historyStep WHERE stack = ? ORDER BY seq DESC LIMIT 1", arguments: [source])
        else { return }
        try db.execute(sql: "DELETE FROM historyStep WHERE seq = ?", arguments: [row["seq"] as Int64])
        try db.execute(sql: "INSERT INTO historyStep (stack, step) VALUES (?, ?)", arguments: [destination, row["step"] as String])
    }

    public func saveResumeRecord(_ record: ResumeRecord) throws {
        try database.write { db in
            try Self.deleteResumeRecord(db)
            try db.execute(
                sql: "INSERT INTO resumeRecord (id, epoch, revision) VALUES (1, ?, ?)",
                arguments: [record.epoch, record.revision])
            for entry in record.history {
                try db.execute(
                    sql: "INSERT INTO resumeHistory (revision, payload) VALUES (?, ?)",
                    arguments: [entry.revision, entry.payload])
            }
        }
        // The record just written is the truth until the next change.
        resumeRecordToRetire.withLock { $0 = false }
        try synchronize()
    }

    /// The record a clean shutdown left, read without writing anything, so
    /// a start needs no free space.
    ///
    /// The record says "nothing happened after this revision", which stays
    /// true only until the next change. So it is removed before any change
    /// can be announced: in the transaction of the next `commit`, or, for a
    /// change that writes nothing (a view's options, the day's re-wording),
    /// by the `synchronize` that must come before the change is announced.
    /// If todod is killed before either, the record is still true and the
    /// next start uses it. The one gap: on a full disk, where that removal in
    /// `synchronize` fails too, a write-less change is announced all the same
    /// (serving matters more there), and a crash before the next successful
    /// write would bring back the record's older revision.
    public func resumeRecord() throws -> ResumeRecord? {
        let record = try database.read { db -> ResumeRecord? in
            guard let row = try Row.fetchOne(db, sql: "SELECT epoch, revision FROM resumeRecord") else { return nil }
            let history = try Row.fetchAll(db, sql: "SELECT revision, payload FROM resumeHistory ORDER BY revision").map {
                ResumeRecord.Entry(revision: $0["revision"], payload: $0["payload"])
            }
            return ResumeRecord(epoch: row["epoch"], revision: row["revision"], history: history)
        }
        if record != nil { resumeRecordToRetire.withLock { $0 = true } }
        return record
    }

    private static func deleteResumeRecord(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM resumeRecord")
        try db.execute(sql: "DELETE FROM resumeHistory")
    }

    /// Removes the resume record if `resumeRecord()` read it and no commit
    /// has removed it yet; best effort (see `resumeRecord()`). The caller syncs.
    private func retireResumeRecord() {
        guard resumeRecordToRetire.withLock({ $0 }) else { return }
        do {
            try database.write(Self.deleteResumeRecord)
            resumeRecordToRetire.withLock { $0 = false }
        } catch {
            // No space, most likely: the next commit or sync tries again.
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
