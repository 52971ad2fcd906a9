import Dispatch
import Synchronization
import TodoStoreInterface

/// Runs async PostgresNIO work from the store writer's thread and waits for
/// it, at most `timeout` seconds.
///
/// The state owner hands the store its work on a thread of its own (the
/// writer), built for SQLite's blocking calls; waiting there for a network
/// round trip costs that thread only. The time limit is what turns a server
/// that does not answer (a cut network) into a clear error within seconds
/// instead of a request that hangs; `onTimeout` then closes the connection,
/// which ends the work still under way.
func waitFor<T: Sendable>(
    seconds timeout: Double, onTimeout: @Sendable () -> Void = {}, _ body: @escaping @Sendable () async throws -> T
) throws -> T {
    let outcome = Mutex<Result<T, any Error>?>(nil)
    let finished = DispatchSemaphore(value: 0)
    let task = Task {
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        outcome.withLock { $0 = result }
        finished.signal()
    }
    if finished.wait(timeout: .now() + timeout) == .timedOut {
        task.cancel()
        onTimeout()
        throw StoreUnavailable.timedOut(seconds: timeout)
    }
    return try outcome.withLock { $0! }.get()
}
