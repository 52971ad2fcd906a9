import PostgresNIO
import TodoStoreInterface

/// A list restored from a backup under running instances.
extension PostgresListStore {
    /// Gives the list a new epoch if it still has `epoch`, under the head
    /// lock: a list restored from a backup takes up revisions it had
    /// before, and a client that saw the old ones must not resume on them
    /// as if nothing happened. The next id is raised to at least
    /// `nextID`, the one the instance that noticed would have handed out:
    /// the items it saves aside keep ids no new item takes.
    public func startNewHistory(replacing epoch: String, nextID: Int64) throws {
        try withConnection { connection, logger in
            try await connection.query("BEGIN", logger: logger)
            do {
                try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.headLock))", logger: logger)
                try await connection.query(
                    """
                    UPDATE list_head SET epoch = gen_random_uuid()::text, next_id = greatest(next_id, \(nextID))
                    WHERE id = 1 AND epoch = \(epoch)
                    """, logger: logger)
                try await connection.query("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }
}
