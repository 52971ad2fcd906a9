import Logging
import NIOPosix
import PostgresNIO
import Synchronization

/// The right to sync a shared list with a calendar server, held by one
/// instance at a time: a session-level advisory lock on a connection of its
/// own. Only the instance holding it lets its `todod-sync` run rounds, so a
/// list shared by several instances syncs once, not once per instance.
///
/// An instance that stops (or crashes, or loses its network) ends its
/// session, and PostgreSQL lets go of the lock with it (a wedged session
/// within the server's keepalive time). The others keep trying every
/// `retry` seconds, so one of them takes over within seconds; its
/// `todod-sync` then syncs from its own record of what was agreed (or, with
/// none, by comparing the whole collection: the same to-dos agree).
final class SyncLease: Sendable {
    /// Shared with the task that holds the lock.
    private final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }
    private let held = Flag()
    private let task = Mutex<Task<Void, Never>?>(nil)
    static let retry: Duration = .seconds(2)

    init(configuration: PostgresConnection.Configuration, group: MultiThreadedEventLoopGroup, logger: Logger) {
        let task = Task { [held] in
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(on: group.next(), configuration: configuration, id: -1, logger: logger)
                    defer { try? connection.close().wait() }
                    while !Task.isCancelled {
                        // Taken once, it stays taken for the session; asking
                        // again checks the session is alive.
                        var taken = false
                        for try await value in try await connection.query("SELECT pg_try_advisory_lock(\(PostgresSchema.syncLock))", logger: logger)
                            .decode(Bool.self)
                        {
                            taken = value
                        }
                        if taken && !held.value.load(ordering: .relaxed) { logger.notice("this instance syncs the list with its calendar server") }
                        held.value.store(taken, ordering: .relaxed)
                        try await Task.sleep(for: SyncLease.retry)
                    }
                } catch {
                    held.value.store(false, ordering: .relaxed)
                    if Task.isCancelled { return }
                    try? await Task.sleep(for: SyncLease.retry)
                }
            }
        }
        self.task.withLock { $0 = task }
    }

    var isHeld: Bool { held.value.load(ordering: .relaxed) }

    func close() {
        task.withLock { task in
            task?.cancel()
            task = nil
        }
        held.value.store(false, ordering: .relaxed)
    }
}
