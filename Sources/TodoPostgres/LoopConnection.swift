import Logging
import NIOCore
import PostgresNIO
import TodoModel
import TodoSharedStore
import TodoStoreInterface

/// The connection the state owner commits and catches up on: it lives on
/// the owner's own event loop, so a commit is a write to a socket and its
/// answer a read on the same thread, with no thread between.
///
/// The other store calls (loading the list, resume records, migrations)
/// block the owner's writer thread, which suits their few calls. A commit
/// per batch went the same way at first, and cost six thread hand-overs per
/// round trip (writer thread, a task on the global executor, PostgresNIO's
/// loop, and back): as long as the round trip itself on loopback.
///
/// **The head lock.** `lock(after:)` takes the list's head lock for this
/// session (`todod_lock`), so no other instance can commit until this one
/// has (`commit`) or let go (`unlock`). An instance that lost a race takes
/// it, applies what the others committed, plans its requests again and
/// commits them: it cannot lose twice. While it holds the lock the server
/// ends the session after 5 s idle (a stopped or cut-off instance), which
/// lets the lock go for the others.
///
/// Every call fails after `timeout` seconds without an answer; the
/// connection is then closed, and the next call connects again. Calls made
/// off the loop (tests) are handed to it.
final class LoopConnection: Sendable {
    let loop: any EventLoop
    private let configuration: PostgresConnection.Configuration
    private let server: String
    private let timeout: TimeAmount
    private let logger: Logger
    private let state: NIOLoopBoundBox<State>

    private struct State {
        var connection: PostgresConnection?
        /// `connection`'s session may hold the head lock.
        var holdsLock = false
        var nextID = 1_000_000
    }

    init(loop: any EventLoop, configuration: PostgresConnection.Configuration, server: String, timeout: Double, logger: Logger) {
        self.loop = loop
        self.configuration = configuration
        self.server = server
        self.timeout = .milliseconds(Int64(timeout * 1000))
        self.logger = logger
        state = .makeBoxSendingValue(State(), as: State.self, eventLoop: loop)
    }

    // MARK: Store calls

    /// Commits `text` (the batch, as `todod_commit` takes it) on top of
    /// `base` into the list `identity` names, and lets go of the head lock
    /// if this session holds it. A list that is not that one any more, or
    /// is at a revision before `base`, is `SharedListMoved`.
    func commit(_ text: String, after base: Int, instance: String, identity: String) -> EventLoopFuture<SharedCommit> {
        guard loop.inEventLoop else {
            return loop.flatSubmit { self.commit(text, after: base, instance: instance, identity: identity) }
        }
        let query: PostgresQuery = "SELECT todod_commit(\(base), \(instance), \(UndoHistory.limit), \(text)::jsonb, \(identity))"
        let server = self.server
        return run { connection, logger in
            connection.query(query, logger: logger).flatMapThrowing { result -> SharedCommit in
                self.state.value.holdsLock = false
                var answer: Int?
                for row in result.rows { answer = try row.decode(Int?.self) }
                guard let answer else { throw SharedListMoved(change: .replaced, server: server) }
                guard answer < 0 else { return .committed(revision: answer) }
                let head = -1 - answer
                if head < base { throw SharedListMoved(change: .wentBack(from: base, to: head), server: server) }
                return .conflict(revision: head)
            }
        }
    }

    /// The transactions after `revision`, oldest first, at most `limit`,
    /// if the database still holds the list `identity` names, at `revision`
    /// or later.
    func transactions(after revision: Int, limit: Int, identity: String) -> EventLoopFuture<[StoredTransaction]> {
        guard loop.inEventLoop else {
            return loop.flatSubmit { self.transactions(after: revision, limit: limit, identity: identity) }
        }
        return run { connection, logger in
            connection.query("SELECT * FROM todod_read(\(revision), \(limit))", logger: logger).flatMapThrowing {
                try self.checkedTransactions(in: $0, after: revision, identity: identity)
            }
        }
    }

    /// Takes the list's head lock for this session and reads what was
    /// committed after `base` (at most `limit`): nothing more can be until
    /// `commit` or `unlock`. Checked as `transactions` is.
    func lock(after base: Int, limit: Int, identity: String) -> EventLoopFuture<[StoredTransaction]> {
        guard loop.inEventLoop else { return loop.flatSubmit { self.lock(after: base, limit: limit, identity: identity) } }
        return run { connection, logger in
            // Held from when the server grants it, whether or not the answer arrives.
            self.state.value.holdsLock = true
            return connection.query("SELECT * FROM todod_lock_read(\(base), \(limit))", logger: logger)
                .flatMapThrowing { result in
                    do {
                        return try self.checkedTransactions(in: result, after: base, identity: identity)
                    } catch {
                        self.unlock()
                        throw error
                    }
                }
        }
    }

    /// Lets go of the head lock without committing anything.
    func unlock() {
        guard loop.inEventLoop else { return loop.execute { self.unlock() } }
        guard state.value.holdsLock else { return }
        state.value.holdsLock = false
        guard let connection = state.value.connection else { return }
        connection.query("SELECT todod_unlock()", logger: logger).whenFailure { _ in
            // Closing the session lets go of it too.
            if self.state.value.connection === connection { self.drop() }
        }
    }

    /// The rows `todod_read` and `todod_lock_read` answer: the list's head
    /// and identity, then the change log after `after`. A list that is not
    /// the one `identity` names, or is behind `after`, is `SharedListMoved`.
    private func checkedTransactions(in result: PostgresQueryResult, after: Int, identity: String) throws -> [StoredTransaction] {
        var rows = result.rows.makeIterator()
        guard let first = rows.next() else { throw SharedListMoved(change: .replaced, server: server) }
        let (head, found, _, _, _, _) = try first.decode((Int?, String?, Int?, String?, String?, String?).self)
        guard let head, found == identity else { throw SharedListMoved(change: .replaced, server: server) }
        if head < after { throw SharedListMoved(change: .wentBack(from: after, to: head), server: server) }
        var transactions: [StoredTransaction] = []
        while let row = rows.next() {
            let (_, _, revision, instance, cause, change) = try row.decode((Int?, String?, Int, String, String?, String).self)
            transactions.append(StoredTransaction(revision: revision, instance: instance, cause: cause, write: try StoredWrite.write(fromJSON: change)))
        }
        return transactions
    }

    /// Closes the connection (for good: the store is closing).
    func close() {
        loop.execute {
            if let connection = self.state.value.connection { Self.close(connection) }
            self.state.value.connection = nil
            self.state.value.holdsLock = false
        }
    }

    // MARK: Connecting and failing

    /// Runs `body` on the open connection (connecting first if there is
    /// none), and fails it after `timeout`. A failure that leaves the
    /// connection unusable closes it, and so does one while this session
    /// may hold the head lock: the lock is never kept by mistake.
    private func run<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection, Logger) -> EventLoopFuture<T>
    ) -> EventLoopFuture<T> {
        loop.preconditionInEventLoop()
        let promise = loop.makePromise(of: T.self)
        let connected = open()
        let timer = loop.scheduleTask(in: timeout) {
            promise.fail(StoreUnavailable.unreachable(server: self.server, reason: "no answer within \(self.timeout.nanoseconds / 1_000_000_000) s"))
            self.drop()
        }
        connected.flatMap { connection in
            body(connection, self.logger).flatMapErrorThrowing { error in
                throw self.failed(error, on: connection)
            }
        }.whenComplete { result in
            timer.cancel()
            promise.completeWith(result)
        }
        return promise.futureResult
    }

    /// What a failure on `connection` is to the owner; closes the
    /// connection if it is unusable or may hold the head lock.
    private func failed(_ error: any Error, on connection: PostgresConnection) -> any Error {
        let (failure, lost) = PostgresListStore.storeError(error, on: connection, server: server)
        if lost || state.value.holdsLock, state.value.connection === connection { drop() }
        return failure
    }

    /// Forgets the connection, closing it.
    private func drop() {
        if let connection = state.value.connection { Self.close(connection) }
        state.value.connection = nil
        state.value.holdsLock = false
    }

    private func open() -> EventLoopFuture<PostgresConnection> {
        if let connection = state.value.connection, !connection.isClosed { return loop.makeSucceededFuture(connection) }
        state.value.holdsLock = false
        state.value.nextID += 1
        let logger = self.logger
        let server = self.server
        return PostgresConnection.connect(on: loop, configuration: configuration, id: state.value.nextID, logger: logger)
            .flatMap { connection in
                PostgresListStore.sessionSettings.reduce(
                    self.loop.makeSucceededVoidFuture()
                ) { done, statement in
                    done.flatMap { connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).map { _ in } }
                }.map { connection }.flatMapErrorThrowing { error in
                    Self.close(connection)
                    throw error
                }
            }
            .map { connection in
                self.state.value.connection = connection
                return connection
            }
            .flatMapErrorThrowing { error in
                if error is StoreUnavailable { throw error }
                throw StoreUnavailable.unreachable(server: server, reason: PostgresListStore.reason(error))
            }
    }

    static func close(_ connection: PostgresConnection) { PostgresListStore.close(connection) }
}
