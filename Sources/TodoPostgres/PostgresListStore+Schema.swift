import PostgresNIO

/// The tables: made on purpose in a new database, brought up to this
/// version in one that holds an older list, and refused when a newer todod
/// made them.
extension PostgresListStore {
    /// Creates the tables or brings them up to this version, in one
    /// transaction under the migration lock, so instances started together
    /// on a new database take turns: the first creates everything, and the
    /// others wait for its commit, then find nothing left to do. The lock
    /// comes before anything looks at or creates a table, the version's
    /// own included: `CREATE TABLE IF NOT EXISTS` run by two sessions at
    /// once can still fail with a duplicate key in PostgreSQL's catalogue.
    ///
    /// A migration of a long list, or the wait for another instance's, may
    /// take longer than a statement's time limit: it has `migrationSeconds`.
    func migrate(createsList: Bool) throws {
        let (server, database) = (self.server, configuration.database ?? configuration.username)
        try withConnection(seconds: max(timeout, Self.migrationSeconds)) { connection, logger in
            try await connection.query("BEGIN", logger: logger)
            do {
                try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.migrationLock))", logger: logger)
                if !createsList {
                    var holdsList = false
                    for try await found in try await connection.query(
                        "SELECT to_regclass('todod_schema') IS NOT NULL", logger: logger
                    ).decode(Bool.self) {
                        holdsList = found
                    }
                    guard holdsList else { throw NoListHere(server: server, database: database) }
                }
                try await connection.query(
                    "CREATE TABLE IF NOT EXISTS todod_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
                    logger: logger)
                var current = 0
                for try await version in try await connection.query("SELECT coalesce(max(version), 0) FROM todod_schema", logger: logger)
                    .decode(Int.self)
                {
                    current = version
                }
                guard current <= PostgresSchema.version else {
                    throw SchemaTooNew(found: current, known: PostgresSchema.version)
                }
                for version in (current + 1)..<(PostgresSchema.version + 1) {
                    for statement in PostgresSchema.migrations[version - 1] {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query("INSERT INTO todod_schema (version) VALUES (\(version))", logger: logger)
                }
                try await connection.query("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// How long creating or migrating the tables may take, the wait for
    /// another instance's included.
    static let migrationSeconds: Double = 120

    /// The database was made by a newer todod: opening it could lose what
    /// that version stores.
    public struct SchemaTooNew: Error, CustomStringConvertible {
        public var found: Int
        public var known: Int
        public var description: String {
            "the database's tables are at version \(found), made by a newer todod; this one knows up to version \(known)"
        }
    }
}
