import Foundation
import PostgresNIO
import TodoModel
import TodoStoreInterface
import TodoViewModels

/// `todod migrate --merge`: another list's items added to this one as one
/// ordinary commit (new ids, one undo step), which running instances take
/// in as any other instance's edit. Each list merged is recorded in
/// `merged_list`, in the commit's transaction, so a second run does not add
/// its items twice, and an instance that starts on this store does not
/// point at that list as left behind.
extension PostgresListStore {
    /// The list was merged before.
    public struct AlreadyMerged: Error, CustomStringConvertible {
        public var listID: String
        public var source: String
        public var mergedAt: String
        public init(listID: String, source: String, mergedAt: String) {
            (self.listID, self.source, self.mergedAt) = (listID, source, mergedAt)
        }
        public var description: String {
            "the list \(listID) was merged into this one already (from \(source), at \(mergedAt)); merging it again would add its items twice"
        }
    }

    /// Where and when the list `listID` was merged into this one, if it was.
    public func merged(listID: String) throws -> (source: String, at: String)? {
        try withConnection { connection, logger in try await Self.merged(listID: listID, connection, logger) }
    }

    private static func merged(listID: String, _ connection: PostgresConnection, _ logger: Logger) async throws -> (source: String, at: String)? {
        var found: (String, String)?
        for try await row in try await connection.query(
            "SELECT source, to_char(merged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM merged_list WHERE list_id = \(listID)",
            logger: logger
        ).decode((String, String).self) {
            found = row
        }
        return found
    }

    /// Commits `write` (the merge, planned on the list as last loaded at
    /// `base`) and records that `listID` was merged from `source`, in one
    /// transaction. Returns the new revision, or nil when another instance
    /// committed after `base` (load and plan again); throws
    /// `SharedListMoved` when the database holds another list than the one
    /// loaded, and `AlreadyMerged` when another run merged `listID` first.
    public func commitMerge(_ write: ListWrite, after base: Int, listID: String, source: String) throws -> Int? {
        let batch = try Self.batchText([StoredTransaction(revision: base + 1, instance: instance, cause: nil, write: write)])
        let identity = self.identity.withLock { $0 }
        let (server, instance) = (self.server, self.instance)
        return try withConnection { connection, logger in
            try await connection.query("BEGIN", logger: logger)
            do {
                var recorded = false
                for try await _ in try await connection.query(
                    "INSERT INTO merged_list (list_id, source) VALUES (\(listID), \(source)) ON CONFLICT DO NOTHING RETURNING list_id",
                    logger: logger
                ).decode(String.self) {
                    recorded = true
                }
                guard recorded else {
                    let (source, at) = try await Self.merged(listID: listID, connection, logger) ?? (source, "now")
                    throw AlreadyMerged(listID: listID, source: source, mergedAt: at)
                }
                var answer: Int?
                for try await value in try await connection.query(
                    "SELECT todod_commit(\(base), \(instance), \(UndoHistory.limit), \(batch)::jsonb, \(identity))", logger: logger
                ).decode(Int?.self) {
                    answer = value
                }
                guard let answer else { throw SharedListMoved(change: .replaced, server: server) }
                guard answer >= 0 else {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    let head = -1 - answer
                    if head < base { throw SharedListMoved(change: .wentBack(from: base, to: head), server: server) }
                    return nil
                }
                try await connection.query("COMMIT", logger: logger)
                return answer
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }
}
