import Foundation
import GRDBSQLite

/// Checks a database file before todod opens it for writing, without
/// changing a byte of it.
///
/// A damaged file must never be written to: SQLite's recovery on a
/// read-write open (rewriting page 1, replaying or growing the write-ahead
/// log) can turn a salvageable file into a lost one, and every later write
/// builds on pages that are wrong. So the file is opened read-only first and
/// `PRAGMA quick_check` run on it; only a file that passes is opened the
/// ordinary way.
///
/// Read-only is not enough by itself: a read-only connection to a WAL
/// database still creates `-wal` and `-shm` next to it. When the log is
/// absent or empty the main file holds the whole database, so it is opened
/// `immutable=1`, which creates nothing. Only when the log holds frames (todod
/// was killed) is it opened `mode=ro`, which reads them but never writes the
/// log (readers only touch the `-shm` index).
public enum DatabaseIntegrity {
    /// Why a file was not opened for writing.
    public enum Problem: Error, CustomStringConvertible {
        /// SQLite says the file is damaged, or is not a database at all.
        case damaged(path: String, detail: String)
        /// The check itself could not run (permissions, a lock, an I/O error).
        case uncheckable(path: String, detail: String)

        public var description: String {
            switch self {
            case .damaged(let path, let detail):
                "the database \(path) is damaged (\(detail)); todod has not written to it and will not start on it. "
                    + "Restore it from a backup, or salvage what is readable: "
                    + "`sqlite3 \(path) .recover | sqlite3 \(path).recovered`, then put \(path).recovered in its place "
                    + "and delete \(path)-wal and \(path)-shm"
            case .uncheckable(let path, let detail):
                "cannot check the database \(path) before opening it (\(detail)); todod has not written to it"
            }
        }
    }

    /// Throws if the file at `path` exists, is not empty, and fails
    /// `PRAGMA quick_check` (or cannot be checked). A missing or empty file
    /// passes: it is a new database.
    public static func check(path: String) throws(Problem) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_size > 0 else { return }
        var logStatus = stat()
        let logHasFrames = stat(path + "-wal", &logStatus) == 0 && logStatus.st_size > 0
        let uri = "file:" + percentEncoded(path) + (logHasFrames ? "?mode=ro" : "?immutable=1")

        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        let opened = sqlite3_open_v2(uri, &connection, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        guard opened == SQLITE_OK, let connection else {
            throw problem(path: path, code: opened, message: connection.map { String(cString: sqlite3_errmsg($0)) })
        }
        sqlite3_busy_timeout(connection, 5000)
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        let prepared = sqlite3_prepare_v2(connection, "PRAGMA quick_check(5)", -1, &statement, nil)
        guard prepared == SQLITE_OK else {
            throw problem(path: path, code: prepared, message: String(cString: sqlite3_errmsg(connection)))
        }
        var findings: [String] = []
        while true {
            let stepped = sqlite3_step(statement)
            if stepped == SQLITE_DONE { break }
            guard stepped == SQLITE_ROW else {
                throw problem(path: path, code: stepped, message: String(cString: sqlite3_errmsg(connection)))
            }
            findings.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
        }
        guard findings == ["ok"] else {
            // One line: a finding can span several ("*** in database main ***\nPage 13: …").
            let problems = findings.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("***") }
            let more = problems.count > 1 ? ", and \(problems.count - 1) more" : ""
            throw .damaged(path: path, detail: "quick_check: \(problems.first ?? "failed")\(more)")
        }
    }

    /// Corruption and "not a database" mean damage; anything else means the
    /// check could not be made.
    private static func problem(path: String, code: Int32, message: String?) -> Problem {
        let detail = message ?? String(cString: sqlite3_errstr(code))
        switch code & 0xFF {
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .damaged(path: path, detail: detail)
        default: return .uncheckable(path: path, detail: detail)
        }
    }

    /// A path as a URI path: `?`, `#` and `%` (and anything unusual) escaped.
    private static func percentEncoded(_ path: String) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-._~")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}
