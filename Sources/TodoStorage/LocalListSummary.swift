import Foundation
import GRDB

/// What a SQLite list file holds, read without writing anything: todod
/// started on a shared store looks whether the data directory's own list
/// still holds items it would otherwise leave behind in silence.
public struct LocalListSummary: Sendable, Equatable {
    public var items: Int
    public var listID: String

    /// The summary of the list at `path`; nil if there is no file, or it is
    /// not a todod list (or one too damaged to read).
    public static func read(path: String) -> LocalListSummary? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? database.close() }
            return try database.read { db in
                guard let listID = try String.fetchOne(db, sql: "SELECT uuid FROM listIdentity WHERE id = 1") else { return nil }
                let items = try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0
                return LocalListSummary(items: items, listID: listID)
            }
        } catch {
            return nil
        }
    }
}
