import Foundation
import Logging
import PostgresNIO

@testable import TodoPostgres

/// A session of the test's own on a test database, for what a test does
/// beside the stores: holding the list's head lock for as long as it needs
/// (the server ends only `todod_lock`'s idle holders, after 5 s, so a hold
/// of the test's own does not race that timer on a slow machine), and
/// waiting for the moment a store's session waits for a lock, instead of
/// sleeping and hoping it has.
final class TestSession {
    private let connection: PostgresConnection
    private let database: String
    private static let logger = Logger(label: "todod.tests.session")

    init(_ configuration: PostgresConnection.Configuration) throws {
        database = configuration.database ?? ""
        connection = try waitFor(seconds: 60) {
            try await PostgresConnection.connect(
                on: PostgresListStoreTests.loop, configuration: configuration, id: 9999, logger: Self.logger)
        }
    }

    deinit {
        let connection = self.connection
        _ = try? waitFor(seconds: 10) { try await connection.close() }
    }

    /// Takes the head lock for this session, until `releaseHeadLock`.
    func holdHeadLock() throws {
        try execute("SELECT pg_advisory_lock(\(PostgresSchema.headLock))")
    }

    func releaseHeadLock() throws {
        try execute("SELECT pg_advisory_unlock(\(PostgresSchema.headLock))")
    }

    /// How many other sessions on the database wait for a lock.
    func sessionsWaitingForALock() throws -> Int {
        try number(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")
    }

    /// Waits until `count` sessions wait for a lock; false if they do not
    /// within `timeout`, which is generous: the wait is for an event.
    func waitUntilSessionsWaitForALock(_ count: Int = 1, timeout: Duration = .seconds(60)) throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while try sessionsWaitingForALock() < count {
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    /// Ends every session on the database that waits for a lock, as a fast
    /// shutdown ends sessions: PostgreSQL tells each one why (57P01).
    func terminateSessionsWaitingForALock() throws -> Int {
        try number(
            """
            SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
            """)
    }

    /// The number a one-row, one-column query gives.
    func number(_ sql: String) throws -> Int {
        let connection = self.connection
        let logger = Self.logger
        return try waitFor(seconds: 60) {
            var value = 0
            for try await number in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Int.self) {
                value = number
            }
            return value
        }
    }

    /// Runs a statement and reads whatever it returns.
    func execute(_ sql: String) throws {
        let connection = self.connection
        let logger = Self.logger
        try waitFor(seconds: 60) {
            for try await _ in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) {}
        }
    }
}
