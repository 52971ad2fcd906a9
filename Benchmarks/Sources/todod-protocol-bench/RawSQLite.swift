import BenchmarkSupport
import Foundation
// SQLite's C API through the system-library module GRDB declares for Linux
// (libsqlite3, the very library todod's store links): the anchor is the disk
// and SQLite alone, so nothing of GRDB's Swift layer runs in it, and the
// package needs no second way of finding libsqlite3.
import GRDBSQLite

/// The disk's durable commit rate as SQLite gives it, in this benchmark's own
/// process: WAL, `synchronous = FULL` (every commit syncs the log), one
/// row per transaction, a table shaped like todod's items, in a fresh
/// database on the same disk as todod's data. The database is opened once;
/// `run(for:)` commits for one time slice, so slices can alternate with
/// todod's and both see the same moments of a shared disk.
final class RawSQLite {
    private let directory: URL
    private let db: OpaquePointer
    private let insert: OpaquePointer
    private var rows = 0

    struct Result {
        var commits = 0
        var seconds = 0.0
        /// Each commit's time (the insert's `sqlite3_step`), in microseconds.
        var times: [Double] = []
        var perSecond: Double { Double(commits) / seconds }
        var medianMicroseconds: Double { percentile(times, 0.5) }
        var p99Microseconds: Double { percentile(times, 0.99) }

        static func + (a: Result, b: Result) -> Result {
            Result(commits: a.commits + b.commits, seconds: a.seconds + b.seconds, times: a.times + b.times)
        }
    }

    init(parent: URL) throws {
        let directory = parent.appendingPathComponent("sqlite-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var handle: OpaquePointer?
        let path = directory.appendingPathComponent("raw.sqlite").path
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
            let db = handle
        else {
            sqlite3_close(handle)
            try? FileManager.default.removeItem(at: directory)
            throw BenchmarkError.failed("cannot open \(path)")
        }
        func fail(_ what: String) -> Error {
            let error = BenchmarkError.failed("\(what): \(String(cString: sqlite3_errmsg(db)))")
            sqlite3_close(db)
            try? FileManager.default.removeItem(at: directory)
            return error
        }
        // The log is grown to its working size first (a little over the
        // 1,000 pages after which SQLite checkpoints and starts it again from
        // the beginning): a commit that extends the file makes the sync write
        // the file's size too, which on ext4 costs a journal commit, and a
        // long-running todod's log is past that stage. A fresh log of 2-page
        // commits would otherwise spend its first 500 commits growing.
        for sql in [
            "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL",
            """
            CREATE TABLE item (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL,
                isDone BOOLEAN NOT NULL DEFAULT 0, createdAt DATETIME NOT NULL, updatedAt DATETIME NOT NULL)
            """,
            "CREATE TABLE pad (b BLOB)", "INSERT INTO pad VALUES (zeroblob(4400000))", "DROP TABLE pad",
        ] {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw fail(sql) }
        }
        guard Self.text(db, "PRAGMA journal_mode") == "wal", Self.text(db, "PRAGMA synchronous") == "2" else {
            throw fail("WAL with synchronous = FULL")
        }
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v2(db, "INSERT INTO item (title, createdAt, updatedAt) VALUES (?, ?, ?)", -1, &prepared, nil) == SQLITE_OK,
            let insert = prepared
        else { throw fail("prepare") }
        self.directory = directory
        self.db = db
        self.insert = insert
        for _ in 0..<20 { try commit() }
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_close(db)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Commits one row at a time for `duration` (or `maximum` commits).
    func run(for duration: Duration, maximum: Int = 20_000) throws -> Result {
        var times: [Double] = []
        times.reserveCapacity(min(maximum, 4096))
        let start = ContinuousClock.now
        let deadline = start + duration
        while times.count < maximum, ContinuousClock.now < deadline {
            let before = ContinuousClock.now
            try commit()
            times.append((ContinuousClock.now - before).microseconds)
        }
        let seconds = (ContinuousClock.now - start).milliseconds / 1000
        return Result(commits: times.count, seconds: seconds, times: times)
    }

    /// Outside a transaction, one step is one transaction: insert, commit, sync.
    private func commit() throws {
        let now = "2026-11-23 09:00:00.000"
        sqlite3_bind_text(insert, 1, "row \(rows)", -1, Self.transient)
        sqlite3_bind_text(insert, 2, now, -1, Self.transient)
        sqlite3_bind_text(insert, 3, now, -1, Self.transient)
        let result = sqlite3_step(insert)
        sqlite3_reset(insert)
        guard result == SQLITE_DONE else { throw BenchmarkError.failed("insert: \(String(cString: sqlite3_errmsg(db)))") }
        rows += 1
    }

    /// SQLITE_TRANSIENT: SQLite copies the bound text (the C macro does not import).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// The first column of the first row `sql` returns, as text.
    private static func text(_ db: OpaquePointer, _ sql: String) -> String? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let value = sqlite3_column_text(statement, 0) else { return nil }
        return String(cString: value)
    }
}
