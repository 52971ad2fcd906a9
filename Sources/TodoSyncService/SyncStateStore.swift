import Foundation
import GRDB
import TodoSync

/// What the sync last agreed with the server, kept in its own SQLite file:
/// for each to-do, where it is on the server, its ETag, and the version both
/// sides last had (the base of the three-way merge); the collection's sync
/// token; and what `sync status` tells.
///
/// Local edits are never queued here: they are in todod's list already, and
/// a to-do that differs from its base is a pending change. So an edit made
/// offline, or before a restart, goes out when the server answers again,
/// and nothing is lost between.
public final class SyncStateStore: Sendable {
    private let database: DatabaseQueue

    public init(path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        database = try DatabaseQueue(path: path, configuration: configuration)
        try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE resource (uid TEXT PRIMARY KEY, href TEXT NOT NULL UNIQUE, etag TEXT, base TEXT NOT NULL, resource TEXT NOT NULL);
                    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE problem (href TEXT PRIMARY KEY, message TEXT NOT NULL);
                    CREATE TABLE conflict (at REAL NOT NULL, uid TEXT NOT NULL, note TEXT NOT NULL);
                    """)
        }
        try migrator.migrate(database)
    }

    public func records() throws -> [String: SyncRecord] {
        try database.read { db in
            var records: [String: SyncRecord] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT uid, href, etag, base, resource FROM resource") {
                let record = SyncRecord(uid: row[0], href: row[1], etag: row[2], base: row[3], resource: row[4])
                records[record.uid] = record
            }
            return records
        }
    }

    /// Writes what a round agreed, all or nothing: the records it changed,
    /// those it forgot (by UID), and the sync token it read the changes with.
    public func commit(saving saved: [SyncRecord], forgetting forgotten: [String], token: String??) throws {
        try database.write { db in
            for uid in forgotten { try db.execute(sql: "DELETE FROM resource WHERE uid = ?", arguments: [uid]) }
            for record in saved {
                // A href is one to-do's: a record moving to it takes it over.
                try db.execute(sql: "DELETE FROM resource WHERE href = ? AND uid <> ?", arguments: [record.href, record.uid])
                try db.execute(
                    sql: "INSERT OR REPLACE INTO resource (uid, href, etag, base, resource) VALUES (?, ?, ?, ?, ?)",
                    arguments: [record.uid, record.href, record.etag, record.base, record.resource])
            }
            switch token {
            case .some(.some(let token)): try Self.set(db, "token", token)
            case .some(.none): try db.execute(sql: "DELETE FROM meta WHERE key = 'token'")
            case .none: break
            }
        }
    }

    public var token: String? { (try? database.read { try String.fetchOne($0, sql: "SELECT value FROM meta WHERE key = 'token'") }) ?? nil }

    /// Forgets everything known of the server and of the list: the next
    /// round starts from no agreed versions, and so compares by UID alone,
    /// which deletes nothing on either side. Then records whose these are:
    /// `collection` on the server, paired with the list `list`.
    public func reset(collection: String, list: String, notice: String? = nil) throws {
        try database.write { db in
            // When a round was tried stays: `sync now` waits on it.
            try db.execute(
                sql: """
                    DELETE FROM resource; DELETE FROM problem; DELETE FROM conflict;
                    DELETE FROM meta WHERE key NOT IN ('lastAttempt', 'roundEnded', 'allowDeletions')
                    """)
            try Self.set(db, "collection", collection)
            try Self.set(db, "list", list)
            if let notice { try Self.set(db, "notice", notice) }
        }
    }

    /// The list's revision the agreed versions were last agreed at; nil
    /// before the first round that recorded one. A list whose revision is
    /// below it went back in time (a backup restored).
    public var revision: Int? {
        (try? database.read { try String.fetchOne($0, sql: "SELECT value FROM meta WHERE key = 'revision'") })?.flatMap { Int($0) }
    }

    /// The collection the agreed versions were agreed with.
    public var collection: String? {
        (try? database.read { try String.fetchOne($0, sql: "SELECT value FROM meta WHERE key = 'collection'") }) ?? nil
    }

    /// The list (`server.status`'s `list`) they were agreed with; nil in a
    /// state written before lists were recorded.
    public var list: String? {
        (try? database.read { try String.fetchOne($0, sql: "SELECT value FROM meta WHERE key = 'list'") }) ?? nil
    }

    // MARK: What sync status tells

    public func setMeta(_ values: [String: String?]) throws {
        try database.write { db in
            for (key, value) in values {
                if let value { try Self.set(db, key, value) } else { try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key]) }
            }
        }
    }

    public func meta() throws -> [String: String] {
        try database.read { db in
            Dictionary(try Row.fetchAll(db, sql: "SELECT key, value FROM meta").map { ($0[0] as String, $0[1] as String) }, uniquingKeysWith: { $1 })
        }
    }

    /// The resources the server holds that could not be read, by href: kept
    /// on the server, skipped, and named in `sync status`.
    public func setProblems(_ problems: [String: String], clearing cleared: [String]) throws {
        try database.write { db in
            for href in cleared { try db.execute(sql: "DELETE FROM problem WHERE href = ?", arguments: [href]) }
            for (href, message) in problems {
                try db.execute(sql: "INSERT OR REPLACE INTO problem (href, message) VALUES (?, ?)", arguments: [href, message])
            }
        }
    }

    public func problems() throws -> [String: String] {
        try database.read { db in
            Dictionary(try Row.fetchAll(db, sql: "SELECT href, message FROM problem").map { ($0[0] as String, $0[1] as String) }, uniquingKeysWith: { $1 })
        }
    }

    public func recordConflicts(_ notes: [(uid: String, note: String)], at date: Date) throws {
        try database.write { db in
            for (uid, note) in notes {
                try db.execute(sql: "INSERT INTO conflict (at, uid, note) VALUES (?, ?, ?)", arguments: [date.timeIntervalSince1970, uid, note])
            }
        }
    }

    public func conflicts() throws -> [(at: Date, uid: String, note: String)] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT at, uid, note FROM conflict ORDER BY at").map {
                (Date(timeIntervalSince1970: $0[0]), $0[1], $0[2])
            }
        }
    }

    private static func set(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [key, value])
    }
}
