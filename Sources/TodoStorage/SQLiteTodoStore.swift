import Foundation
import GRDB
import GRDBSQLite
import Synchronization
import TodoModel
import TodoStoreInterface
import TodoViewModels
import TodoViewState

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
public final class SQLiteTodoStore: LocalListStore {
    let database: DatabaseQueue
    /// The write-ahead log's path (nil for an in-memory database).
    private let logPath: String?
    private let logDescriptor = Mutex<Int32>(-1)
    private let resumeRecordPending = Mutex(false)
    /// The statements of the write path, prepared once (see `WriteStatements`).
    let statements = WriteStatements()
    /// Whether the redo stack may hold steps; nil when not known yet. A new
    /// step clears the stack, and without an index on `stack` finding its
    /// rows reads the whole history, so that is done only when there can be any.
    let redoState = Mutex<Bool?>(nil)
    /// Undo steps stored as JSON (before the binary form, `StoredStep`):
    /// dates in milliseconds.
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
    ///
    /// `exclusive` opens it with `PRAGMA locking_mode = EXCLUSIVE`: the
    /// connection takes the file's lock at its first read and keeps it until
    /// it closes, so no commit takes and releases SQLite's locks (several
    /// `fcntl` calls each) and the log's index lives in this process's
    /// memory instead of `-shm`. No other connection, in this process or
    /// another, can then read the file while the store is open. Off by
    /// default, because some do: `todod migrate` reads a list while its
    /// todod runs, as its help says it may, and tests reopen a file before
    /// the store that wrote it is gone. It saves few instructions (see
    /// docs/performance.md, *Instructions per edit*).
    public init(path: String, exclusive: Bool = false) throws {
        try DatabaseIntegrity.check(path: path)
        var configuration = Configuration()
        configuration.label = "todod"
        configuration.prepareDatabase { db in
            if exclusive {
                // Before the first read, so that the WAL index lives in this
                // connection's memory rather than in `-shm`.
                try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
            }
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
    /// descriptor asks).
    public func synchronize() throws {
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

    public func load() throws -> ListSnapshot {
        try database.read { db in
            var items: [TodoItem] = []
            let statement = try db.makeStatement(sql: "SELECT \(TodoRecord.selection) FROM item ORDER BY id")
            let rows = try Row.fetchCursor(statement)
            while let row = try rows.next() { items.append(try TodoRecord(row: row, of: statement).item()) }
            // The highest id a deleted item had, if above every item's (migration v10).
            let deletedID = try Int64.fetchOne(db, sql: "SELECT highestItemID FROM listIdentity WHERE id = 1") ?? 0
            let highestID = max(deletedID, items.last?.id.rawValue ?? 0)
            var undo: [UndoStep] = []
            var redo: [UndoStep] = []
            for row in try Row.fetchAll(db, sql: Self.historyQuery) {
                // Throwing decodes: a damaged value fails the load, never crashes it.
                let step: UndoStep
                if case .blob(let data) = (row["step"] as DatabaseValue).storage {
                    step = Self.storedStep(binary: [UInt8](data))
                } else {
                    // JSON text, as versions before the binary form stored steps.
                    // (A step with a description is JSON text; without one its form is unused.)
                    step = Self.storedStep(
                        description: try row.decode(forColumn: "description"),
                        json: (try? row.decode(Data.self, forColumn: "step")) ?? Data())
                }
                if try row.decode(String.self, forColumn: "stack") == "undo" { undo.append(step) } else { redo.append(step) }
            }
            redoState.withLock { $0 = !redo.isEmpty }
            var views: [String: ViewSettings] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, filter, sort, query, grouping FROM viewSetting") {
                // A value a later version wrote and this one does not know falls back to the default.
                views[row["name"]] = ViewSettings(
                    filter: ListFilter(rawValue: row["filter"]) ?? .all,
                    sort: (try? ListSort(parsing: row["sort"] as String? ?? "")) ?? .created,
                    query: row["query"] ?? "",
                    grouping: (row["grouping"] as String?).flatMap(ListGrouping.init(rawValue:)))
            }
            let fired = try Row.fetchAll(db, sql: "SELECT itemID, condition FROM firedReminder").compactMap { row in
                ReminderAlert.Condition(rawValue: row["condition"]).map { ReminderKey(itemID: TodoID(row["itemID"] as Int64), condition: $0) }
            }
            guard let listID = try String.fetchOne(db, sql: "SELECT uuid FROM listIdentity WHERE id = 1") else {
                throw DatabaseError(message: "the list has no identity (table listIdentity is empty)")
            }
            var desktop: [ReminderKey: DesktopReminderState] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT itemID, condition, snoozedUntil, dismissed FROM desktopReminder") {
                // A condition a later version wrote and this one does not know is left out.
                guard let condition = ReminderAlert.Condition(rawValue: row["condition"]) else { continue }
                desktop[ReminderKey(itemID: TodoID(row["itemID"] as Int64), condition: condition)] =
                    DesktopReminderState(snoozedUntil: try row.decode(Date?.self, forColumn: "snoozedUntil"), dismissed: row["dismissed"])
            }
            return ListSnapshot(
                items: items,
                nextID: TodoID(highestID + 1),
                history: UndoHistory(undoSteps: undo, redoSteps: redo),
                viewSettings: views,
                firedReminders: Set(fired),
                listID: listID,
                desktopReminders: desktop
            )
        }
    }

    /// Each step's stored form for later, and for a step stored as JSON
    /// (TEXT) its description, read by SQLite's JSON functions (in C, and
    /// without building the items). A binary step (BLOB) starts with its
    /// description. (JSON functions refuse BLOBs, hence the nested CASE.)
    private static let historyQuery = """
        SELECT stack, step,
               CASE WHEN typeof(step) = 'text' THEN
                   CASE WHEN json_valid(step) AND json_type(step, '$.description') = 'text'
                        THEN json_extract(step, '$.description') END
               END AS description
        FROM historyStep ORDER BY seq
        """

    /// A stored undo step whose items are decoded only if it is undone or
    /// redone: the history can hold as many items as the list, and decoding
    /// them all took half of the start-up. A step that is not valid JSON, or
    /// has no description, is kept too; undoing it is refused with the reason.
    private static func storedStep(description: String?, json: Data) -> UndoStep {
        struct Stored: Decodable {
            var changes: [ItemChange]
        }
        guard let description else {
            return UndoStep(description: "a change that cannot be read back") {
                throw StoredStepError.noDescription
            }
        }
        return UndoStep(description: description) { try decoder.decode(Stored.self, from: json).changes }
    }

    /// A step stored in the binary form (`StoredStep`), its changes read
    /// only when it is undone or redone, like a JSON one's.
    private static func storedStep(binary bytes: [UInt8]) -> UndoStep {
        guard let (description, origin) = StoredStep.header(of: bytes) else {
            return UndoStep(description: "a change that cannot be read back") {
                throw StoredStep.ReadError(description: "its stored form is not one this version of todod knows")
            }
        }
        var step = UndoStep(description: description) { try StoredStep.decode(bytes).changes }
        step.origin = origin
        return step
    }

    enum StoredStepError: Error, CustomStringConvertible {
        case noDescription
        var description: String { "its stored form is not JSON with a description" }
    }

    /// Stores `batch` in one transaction, each write in a savepoint of its
    /// own, so that one sync covers them all. If a write fails, those before
    /// it are still committed and it and every later one are not (they were
    /// made on top of it): `BatchWriteError.stored` says how many were.
    public func write(_ batch: [ListWrite]) throws(BatchWriteError) {
        guard !batch.isEmpty || hasPendingResumeRecord else { return }
        var stored = 0
        var failure: (any Error)?
        // What the redo stack holds once the batch is committed (see `redoState`).
        var redo = redoState.withLock { $0 }
        do {
            try database.writeWithoutTransaction { db in
                try transaction(db) {
                    if resumeRecordPending.withLock({ $0 }) {
                        // Read at start; from this first change on it is stale.
                        try db.execute(sql: "DELETE FROM resumeRecord")
                        try db.execute(sql: "DELETE FROM resumeHistory")
                    }
                    // A savepoint per write, so a failed one takes back only
                    // itself; a batch of one needs none (the transaction is it).
                    let savepoints = batch.count > 1
                    for write in batch {
                        do {
                            if savepoints { try statements.run(.savepoint, db) }
                            try store(write, db, redo: &redo)
                            if savepoints { try statements.run(.releaseSavepoint, db) }
                            stored += 1
                        } catch {
                            failure = error
                            redo = nil  // the savepoint took back what this write did to it
                            guard savepoints else { return false }
                            // Back to before this write; the ones before it stay.
                            try statements.run(.rollbackToSavepoint, db)
                            try statements.run(.releaseSavepoint, db)
                            break
                        }
                    }
                    return true
                }
            }
        } catch {
            // The commit itself failed (a full disk, say): nothing was stored.
            redoState.withLock { $0 = nil }
            throw BatchWriteError(stored: 0, underlying: error)
        }
        redoState.withLock { $0 = stored == 0 ? $0 : redo }
        resumeRecordPending.withLock { $0 = false }
        if let failure { throw BatchWriteError(stored: stored, underlying: failure) }
    }

    /// Runs `body` in an immediate transaction, committed if it returns
    /// true and rolled back if it returns false or throws (rethrowing). With
    /// prepared statements: GRDB's `inTransaction` parses `BEGIN` and
    /// `COMMIT` anew every time.
    private func transaction(_ db: Database, _ body: () throws -> Bool) throws {
        try statements.run(.begin, db)
        do {
            if try body() {
                try statements.run(.commit, db)
                return
            }
        } catch {
            // A failed COMMIT may leave the transaction open (SQLITE_BUSY) or
            // have rolled it back already (a full disk): roll back if open.
            if sqlite3_get_autocommit(db.sqliteConnection) == 0 { try? statements.run(.rollback, db) }
            throw error
        }
        try statements.run(.rollback, db)
    }

    /// Stores one transaction's write (without a transaction of its own).
    /// `redo` is whether the redo stack may hold steps (nil: not known), kept up to date.
    private func store(_ write: ListWrite, _ db: Database, redo: inout Bool?) throws {
        for change in write.changes {
            if let after = change.after {
                try statements.run(.upsertItem, db) { try TodoRecord.bind(after, to: $0) }
            } else {
                try statements.run(.deleteItem, db) { Bind.int($0, 1, change.id.rawValue) }
                // Writes a page only when the deleted id is above every id deleted
                // before it: the largest item's, which the next start could
                // otherwise give again (`highestItemID`, migration v10).
                try statements.run(.raiseHighestItemID, db) { Bind.int($0, 1, change.id.rawValue) }
            }
        }
        // Prepared or cached statements throughout: these run on every commit.
        switch write.historyChange {
        case .record(let step)?:
            if redo != false {
                // Without an index this reads the whole history: only when there can be steps to redo.
                try statements.run(.clearRedo, db)
                redo = false
            }
            try push(step, db)
            // Steps beyond the limit are dropped now and then rather than on
            // every commit (the query reads the newest `limit` steps); `load`
            // keeps only the newest `limit`, so the extra rows are never seen.
            // The steps are found by the newest one to drop, so both halves
            // walk the table by its key: the older form (`seq NOT IN` the
            // newest `limit`) built a temporary index of them on every trim,
            // about 11,000 instructions of every durable edit.
            if db.lastInsertedRowID % Self.trimInterval == 0 {
                try db.cachedStatement(
                    sql: """
                        DELETE FROM historyStep WHERE stack = 'undo' AND seq <=
                        (SELECT seq FROM historyStep WHERE stack = 'undo' ORDER BY seq DESC LIMIT 1 OFFSET ?)
                        """
                ).execute(arguments: [UndoHistory.limit])
            }
        case .undo?:
            try move(from: "undo", to: "redo", db)
            redo = true
        case .redo?:
            try move(from: "redo", to: "undo", db)
        case nil:
            break
        }
        for (name, settings) in write.viewSettings {
            try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO viewSetting (name, filter, sort, query, grouping) VALUES (?, ?, ?, ?, ?)"
            ).execute(arguments: [name, settings.filter.rawValue, settings.sort.text, settings.query, settings.grouping?.rawValue])
        }
        for name in write.removedViews {
            try db.cachedStatement(sql: "DELETE FROM viewSetting WHERE name = ?").execute(arguments: [name])
        }
        for key in write.firedReminders {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO firedReminder (itemID, condition) VALUES (?, ?)")
                .execute(arguments: [key.itemID.rawValue, key.condition.rawValue])
        }
        for (key, state) in write.desktopReminders {
            try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO desktopReminder (itemID, condition, snoozedUntil, dismissed) VALUES (?, ?, ?, ?)"
            ).execute(arguments: [
                key.itemID.rawValue, key.condition.rawValue, state.snoozedUntil.map(StoredDateText.databaseValue), state.dismissed,
            ])
        }
    }

    /// Every how many stored steps the undo stack is trimmed to its limit.
    /// A trim reads the newest `UndoHistory.limit` steps whatever it then
    /// drops, so trimming less often spreads that read over more edits: at
    /// 128 a trim costs about 2,500 instructions per edit (4,000 at 32), and
    /// the table holds at most 128 steps beyond the limit (a few tens of KB).
    static let trimInterval: Int64 = 128

    /// Pushes a new step on the undo stack, in the binary form (`StoredStep`).
    private func push(_ step: UndoStep, _ db: Database) throws {
        let bytes = try StoredStep.encode(step)
        try statements.run(.pushStep, db) { Bind.blob($0, 1, bytes) }
    }

    /// Moves the top step of one stack to the other, as it is stored (JSON or binary).
    private func move(from source: String, to destination: String, _ db: Database) throws {
        guard let seq = try Int64.fetchOne(db, sql: "SELECT seq FROM historyStep WHERE stack = ? ORDER BY seq DESC LIMIT 1", arguments: [source])
        else { return }
        try db.execute(sql: "INSERT INTO historyStep (stack, step) SELECT ?, step FROM historyStep WHERE seq = ?", arguments: [destination, seq])
        try db.execute(sql: "DELETE FROM historyStep WHERE seq = ?", arguments: [seq])
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
        resumeRecordPending.withLock { $0 = false }
        try synchronize()
    }

    /// The record a clean shutdown left, if any. Reading it writes nothing
    /// (todod starts on a full disk); the record is deleted by the first
    /// write after it, in the same transaction, so from the first change on
    /// a crash cannot find it again.
    public func resumeRecord() throws -> ResumeRecord? {
        let record = try database.read { db -> ResumeRecord? in
            guard let row = try Row.fetchOne(db, sql: "SELECT epoch, revision FROM resumeRecord") else { return nil }
            let history = try Row.fetchAll(db, sql: "SELECT revision, payload FROM resumeHistory ORDER BY revision").map {
                ResumeRecord.Entry(revision: $0["revision"], payload: $0["payload"])
            }
            return ResumeRecord(epoch: row["epoch"], revision: row["revision"], history: history)
        }
        if record != nil { resumeRecordPending.withLock { $0 = true } }
        return record
    }

    private static func deleteResumeRecord(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM resumeRecord")
        try db.execute(sql: "DELETE FROM resumeHistory")
    }

    /// Whether a resume record was read and not yet deleted: the next write,
    /// even an empty one, deletes it.
    public var hasPendingResumeRecord: Bool { resumeRecordPending.withLock { $0 } }

    /// Moves everything in the write-ahead log into the main database file and
    /// truncates the log, so the file on disk is complete on its own. Called on
    /// shutdown.
    public func checkpoint() throws {
        try database.writeWithoutTransaction { db in
            _ = try db.checkpoint(.truncate)
        }
    }

    /// Makes the database refuse to store an item titled `title`, so that
    /// one write of a batch fails: for tests of partial batches only.
    public func refuseItemsForTesting(titled title: String) throws {
        try database.write { db in
            let quoted = "'" + title.replacingOccurrences(of: "'", with: "''") + "'"
            try db.execute(
                sql: "CREATE TEMP TRIGGER refuse BEFORE INSERT ON item WHEN NEW.title = \(quoted) BEGIN SELECT RAISE(ABORT, 'refused'); END")
        }
    }

    /// Closes the database. Later calls fail.
    public func close() throws {
        // The write path's prepared statements would keep the connection open.
        database.writeWithoutTransaction { _ in statements.finalizeAll() }
        try database.close()
    }
}
