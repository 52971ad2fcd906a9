import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization
import TodoModel
import TodoSharedStore
import TodoStoreInterface
import TodoViewModels
import TodoViewState

/// The shared store: one list in a PostgreSQL database, for any number of
/// todod instances (`todod --store postgres://…`).
///
/// **One order.** Every commit goes through `todod_commit`, which takes the
/// list's head lock, checks that no other instance committed since the
/// revision this one planned on, stores the batch, appends it to the change
/// log with the next revisions, and sends a NOTIFY with the new revision:
/// one round trip per batch. Commits of all instances are thereby serial,
/// in revision order; an instance that lost the race takes the head lock,
/// reads the change log, applies it, plans again and commits under the
/// lock (`SharedListStore`, `LoopConnection`).
///
/// **Durable before acknowledged.** The session runs with
/// `synchronous_commit = on`, so a commit returns only once the server has
/// flushed it; `synchronize()` has nothing left to do.
///
/// Commits and catch-up reads run on the state owner's event loop, on a
/// connection of their own (`LoopConnection`); every other call runs on the
/// owner's writer thread. Each waits for the server at most `timeout`
/// seconds: a server that is gone or cut off gives `StoreUnavailable` in
/// seconds, and the next call connects again.
public final class PostgresListStore: SharedListStore {
    public let instance: String
    /// How the server is named in errors and the journal (no secrets).
    public let server: String
    let configuration: PostgresConnection.Configuration
    let timeout: Double
    private let logger: Logger
    /// NIO's process-wide group, never shut down: a connection closed late
    /// (the watcher's, as its task ends) still has a loop to close on.
    private let group: MultiThreadedEventLoopGroup = .singleton
    private let connection = Mutex<PostgresConnection?>(nil)
    /// Commits and catch-up reads, on the state owner's loop.
    private let loopConnection = Mutex<LoopConnection?>(nil)
    private let listener = Mutex<Task<Void, Never>?>(nil)
    private let syncLease = Mutex<SyncLease?>(nil)
    private let nextConnectionID = Atomic<Int>(1)
    /// Which list this instance holds (`todod_identity()`), as last loaded:
    /// commits and reads are checked against it.
    let identity = Mutex<String>("")
    private let loadedListID = Mutex<String>("")
    /// The identity of the list as last loaded (`ListSnapshot.listID`).
    public var listID: String { loadedListID.withLock { $0 } }

    /// Connects, migrates the tables, and checks the list is readable. A
    /// database without todod's tables is refused (`NoListHere`) unless
    /// `createsList`: a new shared list is made on purpose (`todod
    /// --init-store`, `todod migrate`), not by a mistyped database name.
    public init(
        configuration: PostgresConnection.Configuration, server: String, instance: String, timeout: Double = 10,
        createsList: Bool = false, logger: Logger = Logger(label: "todod.postgres")
    ) throws {
        self.configuration = configuration
        self.server = server
        self.instance = instance
        self.timeout = timeout
        self.logger = logger
        // Refused here (a wrong password) is a setting to fix; later, the same is an outage.
        _ = try open()
        try migrate(createsList: createsList)
        // The list it opened; `loadShared` reads it again with the items.
        let opened = try withConnection { connection, logger in
            var found = ""
            for try await text in try await connection.query("SELECT todod_identity()", logger: logger).decode(String.self) { found = text }
            return found
        }
        identity.withLock { $0 = opened }
    }

    deinit {
        close()
    }

    // MARK: Connections

    /// The open connection, or a new one.
    private func open() throws -> PostgresConnection {
        if let current = connection.withLock({ $0 }), !current.isClosed { return current }
        let new = try connect()
        connection.withLock { $0 = new }
        return new
    }

    private func connect() throws -> PostgresConnection {
        let configuration = self.configuration
        let logger = self.logger
        let id = nextConnectionID.add(1, ordering: .relaxed).oldValue
        let loop = group.next()
        do {
            return try waitFor(seconds: timeout) {
                let connection = try await PostgresConnection.connect(on: loop, configuration: configuration, id: id, logger: logger)
                do {
                    for statement in Self.sessionSettings {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    // Given up on meanwhile (the time limit): nobody will close it but us.
                    try Task.checkCancellation()
                    return connection
                } catch {
                    Self.close(connection)
                    throw error
                }
            }
        } catch StoreUnavailable.timedOut(let seconds) {
            throw StoreUnavailable.unreachable(server: server, reason: "no answer within \(Int(seconds)) s")
        } catch let error where Self.forbidsNetwork(error) {
            throw NetworkForbidden(server: server)
        } catch let error as StoreUnavailable {
            throw error
        } catch let error as PSQLError where Self.isPassing(error) {
            // The server is starting up, shutting down or in recovery
            // (SQLSTATE class 57P): it will take connections, so todod waits.
            throw StoreUnavailable.unreachable(server: server, reason: Self.reason(error))
        } catch let error as PSQLError
            where error.serverInfo != nil || error.code == .sslUnsupported || error.code == .authMechanismRequiresPassword
            || error.underlying is NIOSSLError
        {
            // The server answered, and said no (a wrong password or database
            // name), or asked for a password todod does not have, or TLS as
            // asked for cannot be had (no TLS, a certificate that does not
            // verify): trying again does not fix it.
            throw ConnectionRefused(server: server, reason: Self.reason(error))
        } catch {
            throw StoreUnavailable.unreachable(server: server, reason: Self.reason(error))
        }
    }

    /// What every session of the store sets first: the promise the daemon
    /// makes, a reply only once the server has flushed the commit.
    static let sessionSettings = ["SET synchronous_commit = on"]

    /// Runs `body` on the open connection; a connection that failed is
    /// dropped, so the next call connects again.
    /// `seconds` overrides the store's time limit, for work that may
    /// rightly take longer than one statement (a migration).
    func withConnection<T: Sendable>(
        seconds: Double? = nil, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) throws -> T {
        let current: PostgresConnection
        do {
            current = try open()
        } catch let refused as ConnectionRefused {
            throw StoreUnavailable.unreachable(server: server, reason: refused.reason)
        } catch is NetworkForbidden {
            throw StoreUnavailable.unreachable(server: server, reason: "the sandbox forbids the network")
        }
        let logger = self.logger
        do {
            return try waitFor(seconds: seconds ?? timeout, onTimeout: { Self.close(current) }) {
                try await body(current, logger)
            }
        } catch {
            let (failure, lost) = Self.storeError(error, on: current, server: server)
            if lost {
                connection.withLock { if $0 === current { $0 = nil } }
                if !current.isClosed { Self.close(current) }
            }
            throw failure
        }
    }

    /// What a statement's failure on `connection` is to the owner, and
    /// whether the connection is lost (gone, timed out, or the server going
    /// away: the caller drops it). Out of reach is `StoreUnavailable`; the
    /// server refusing the statement is `StatementFailed`, with its message;
    /// anything else (a change the client could not decode) is the error itself.
    static func storeError(_ error: any Error, on connection: PostgresConnection, server: String) -> (error: any Error, lost: Bool) {
        if case StoreUnavailable.timedOut(let seconds) = error {
            return (StoreUnavailable.unreachable(server: server, reason: "no answer within \(Int(seconds)) s"), true)
        }
        if let unavailable = error as? StoreUnavailable { return (unavailable, true) }
        if connection.isClosed || meansUnreachable(error) {
            return (StoreUnavailable.unreachable(server: server, reason: reason(error)), true)
        }
        if error is PSQLError { return (StatementFailed(reason: reason(error)), false) }
        return (error, false)
    }

    /// Whether `error` says the connection is gone, or the server is going
    /// away or not yet taking work (SQLSTATE classes 08 and 57P: a fast
    /// shutdown's "terminating connection due to administrator command"),
    /// rather than that it refused the statement. The connection may not
    /// yet look closed when the error arrives, so its word decides.
    static func meansUnreachable(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        if let state = error.serverInfo?[.sqlState] { return state.hasPrefix("08") || state.hasPrefix("57P") }
        return [.serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .connectionError].contains(error.code)
    }

    /// What went wrong, in a line: PostgreSQL's own message when it sent one.
    /// A refusal that passes: the server is starting up, shutting down or
    /// in recovery ("the database system is starting up", SQLSTATE 57P03).
    static func isPassing(_ error: PSQLError) -> Bool {
        error.serverInfo?[.sqlState]?.hasPrefix("57P") == true
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return reason(underlying) }
            if error.code == .sslUnsupported { return "the server does not offer TLS, and sslmode asks for it" }
            if error.code == .authMechanismRequiresPassword {
                return "the server asks for a password, and the password file (~/.pgpass or $PGPASSFILE, "
                    + "mode 0600) has none for this server, database and user"
            }
            return String(describing: error.code)
        }
        // "connection refused", not NIO's whole account of each address tried.
        if let error = error as? NIOConnectionError, let last = error.connectionErrors.last {
            return reason(last.error)
        }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        return String(describing: error)
    }

    // MARK: Reading

    public func loadShared() throws -> SharedSnapshot {
        try withConnection { connection, logger in
            // One snapshot for every table: the list exactly at `revision`.
            try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            do {
                let loaded = try await self.read(connection, logger)
                try await connection.query("COMMIT", logger: logger)
                return loaded
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    private func read(_ connection: PostgresConnection, _ logger: Logger) async throws -> SharedSnapshot {
        var head: (listID: String, epoch: String, revision: Int, nextID: Int64, identity: String)?
        for try await row in try await connection.query(
            "SELECT list_id, epoch, revision, next_id, todod_identity() FROM list_head WHERE id = 1", logger: logger
        ).decode((String, String, Int, Int64, String).self) {
            head = (row.0, row.1, row.2, row.3, row.4)
        }
        guard let head else { throw MissingHead() }
        var items: [TodoItem] = []
        for try await text in try await connection.query("SELECT item::text FROM item ORDER BY id", logger: logger).decode(String.self) {
            items.append(try StoredWrite.decoder.decode(TodoItem.self, from: Data(text.utf8)))
        }
        var undo: [UndoStep] = []
        var redo: [UndoStep] = []
        for try await (stack, description, origin, step) in try await connection.query(
            "SELECT stack, step->>'description', step->>'origin', step::text FROM history_step ORDER BY seq", logger: logger
        ).decode((String, String?, String?, String).self) {
            // Read when undone, as the SQLite store does: steps can be as large as the list.
            var stored = UndoStep(description: description ?? "a change that cannot be read back") {
                try StoredWrite.decoder.decode(UndoStep.self, from: Data(step.utf8)).changes
            }
            stored.origin = origin
            if stack == "undo" { undo.append(stored) } else { redo.append(stored) }
        }
        var views: [String: ViewSettings] = [:]
        for try await (name, settings) in try await connection.query("SELECT name, settings::text FROM view_setting", logger: logger)
            .decode((String, String).self)
        {
            let view = try StoredWrite.decoder.decode(StoredWrite.View.self, from: Data(settings.utf8))
            views[name] = view.settings
        }
        var fired: Set<ReminderKey> = []
        for try await (itemID, condition) in try await connection.query("SELECT item_id, condition FROM fired_reminder", logger: logger)
            .decode((Int64, String).self)
        {
            if let condition = ReminderAlert.Condition(rawValue: condition) { fired.insert(ReminderKey(itemID: TodoID(itemID), condition: condition)) }
        }
        var desktop: [ReminderKey: DesktopReminderState] = [:]
        for try await (itemID, condition, snoozedUntil, dismissed) in try await connection.query(
            "SELECT item_id, condition, snoozed_until, dismissed FROM desktop_reminder", logger: logger
        ).decode((Int64, String, Int64?, Bool).self) {
            guard let condition = ReminderAlert.Condition(rawValue: condition) else { continue }
            desktop[ReminderKey(itemID: TodoID(itemID), condition: condition)] = DesktopReminderState(
                snoozedUntil: snoozedUntil.map { Date(timeIntervalSince1970: Double($0) / 1000) }, dismissed: dismissed)
        }
        let snapshot = ListSnapshot(
            items: items, nextID: TodoID(head.nextID), history: UndoHistory(undoSteps: undo, redoSteps: redo),
            viewSettings: views, firedReminders: fired, listID: head.listID, desktopReminders: desktop)
        identity.withLock { $0 = head.identity }
        loadedListID.withLock { $0 = head.listID }
        return SharedSnapshot(snapshot: snapshot, epoch: head.epoch, revision: head.revision)
    }

    struct MissingHead: Error, CustomStringConvertible {
        var description: String { "the list's head row (table list_head) is missing" }
    }

    // MARK: Writing

    public func commit(_ batch: [StoredTransaction], after base: Int, on loop: any EventLoop) -> EventLoopFuture<SharedCommit> {
        let text: String
        do {
            text = try Self.batchText(batch)
        } catch {
            return loop.makeFailedFuture(error)
        }
        return connection(on: loop).commit(text, after: base, instance: instance, identity: identity.withLock { $0 })
    }

    /// The batch as `todod_commit` takes it: `[{"cause": …, "write": …}]`.
    static func batchText(_ batch: [StoredTransaction]) throws -> String {
        var parts: [String] = []
        parts.reserveCapacity(batch.count)
        for transaction in batch {
            parts.append("{\"cause\":\(transaction.cause ?? "null"),\"write\":\(try StoredWrite.json(transaction.write))}")
        }
        return "[" + parts.joined(separator: ",") + "]"
    }

    public func transactions(after revision: Int, limit: Int, on loop: any EventLoop) -> EventLoopFuture<[StoredTransaction]> {
        connection(on: loop).transactions(after: revision, limit: limit, identity: identity.withLock { $0 })
    }

    public func lock(after base: Int, limit: Int, on loop: any EventLoop) -> EventLoopFuture<[StoredTransaction]> {
        connection(on: loop).lock(after: base, limit: limit, identity: identity.withLock { $0 })
    }

    public func unlock(on loop: any EventLoop) {
        connection(on: loop).unlock()
    }

    /// The connection that lives on `loop` (one loop: the state owner's).
    private func connection(on loop: any EventLoop) -> LoopConnection {
        loopConnection.withLock { current in
            if let current, current.loop === loop { return current }
            current?.close()
            let new = LoopConnection(loop: loop, configuration: configuration, server: server, timeout: timeout, logger: logger)
            current = new
            return new
        }
    }

    // MARK: Announcements

    public func watch(_ announce: @escaping @Sendable (Int?) -> Void) {
        let configuration = self.configuration
        let logger = self.logger
        let loop = group.next()
        let task = Task {
            var delay = 0.1
            var announcedLoss = false
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(on: loop, configuration: configuration, id: 0, logger: logger)
                    defer { Self.close(connection) }
                    try await connection.query("SELECT pg_advisory_lock_shared(\(PostgresSchema.instanceLock))", logger: logger)
                    let notifications = try await connection.listen("todod")
                    if announcedLoss {
                        // Whatever was committed while no one listened is in the change log.
                        announce(nil)
                        announcedLoss = false
                    }
                    delay = 0.1
                    for try await notification in notifications {
                        // `todod migrate` announces a list copied over this one with no revision: read it.
                        announce(Int(notification.payload))
                    }
                } catch {
                    if Task.isCancelled { return }
                }
                announcedLoss = true
                try? await Task.sleep(for: .seconds(delay))
                delay = min(delay * 2, 5)
            }
        }
        listener.withLock { $0 = task }
    }

    public func holdsSyncLease() -> Bool {
        syncLease.withLock { lease in
            if lease == nil { lease = SyncLease(configuration: configuration, group: group, logger: logger) }
            return lease!.isHeld
        }
    }

    public func close() {
        syncLease.withLock { lease in
            lease?.close()
            lease = nil
        }
        loopConnection.withLock { current in
            current?.close()
            current = nil
        }
        listener.withLock { task in
            task?.cancel()
            task = nil
        }
        connection.withLock { current in
            if let open = current { Self.close(open) }
            current = nil
        }
    }

    /// Closes `connection`, keeping it until it is closed: PostgresNIO
    /// wants a connection closed before it is let go.
    static func close(_ connection: PostgresConnection) {
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    // MARK: ListStore

    public func load() throws -> ListSnapshot { try loadShared().snapshot }

    /// This instance's record from its last clean stop. The owner uses it
    /// only if the list is still at its revision: otherwise other instances
    /// committed since, and the history it holds has a gap.
    public func resumeRecord() throws -> ResumeRecord? {
        let instance = self.instance
        return try withConnection { connection, logger in
            var record: ResumeRecord?
            for try await (epoch, revision, history) in try await connection.query(
                "SELECT epoch, revision, history::text FROM resume_record WHERE instance = \(instance)", logger: logger
            ).decode((String, Int, String).self) {
                let entries = try StoredWrite.decoder.decode([StoredResumeEntry].self, from: Data(history.utf8))
                record = ResumeRecord(
                    epoch: epoch, revision: revision,
                    history: entries.map { ResumeRecord.Entry(revision: $0.revision, payload: Data($0.payload.utf8)) })
            }
            return record
        }
    }

    /// A record past its list's revision is simply not used; none is pending.
    public func saveResumeRecord(_ record: ResumeRecord) throws {
        let entries = record.history.map { StoredResumeEntry(revision: $0.revision, payload: String(decoding: $0.payload, as: UTF8.self)) }
        let history = String(decoding: try StoredWrite.encoder.encode(entries), as: UTF8.self)
        let (instance, epoch, revision) = (self.instance, record.epoch, record.revision)
        try withConnection { connection, logger in
            try await connection.query(
                """
                INSERT INTO resume_record (instance, epoch, revision, history) VALUES (\(instance), \(epoch), \(revision), \(history)::jsonb)
                ON CONFLICT (instance) DO UPDATE SET epoch = EXCLUDED.epoch, revision = EXCLUDED.revision, history = EXCLUDED.history
                """, logger: logger)
        }
    }

    /// One entry of a resume record: the daemon's wire form, kept as text.
    struct StoredResumeEntry: Codable {
        var revision: Int
        var payload: String
    }
}
