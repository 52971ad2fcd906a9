import NIOCore
import NIOPosix
import TodoOwner
import TodoStoreInterface
import TodoViewModels

/// The one writer of the store: a thread of its own that stores batches in
/// the order the state owner hands them over and syncs once per batch.
///
/// Blocking SQLite work (commits, fsyncs, WAL checkpoints) never runs on the
/// owner's event loop or the connections' loops. The owner hands over one
/// batch at a time and collects the transactions that arrive meanwhile into
/// the next one, so one sync covers as many edits as arrived during the last
/// (group commit).
final class StoreWriter: Sendable {
    private let store: any ListStore
    private let thread: NIOThreadPool

    init(store: any ListStore) {
        self.store = store
        thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
    }

    /// Stores and syncs `batch` in `store` (the one this writer was made
    /// for: a list of this instance's own) on the writer's thread, then calls
    /// `done` on `loop`.
    func write(
        _ batch: [ListWrite], to store: any LocalListStore, on loop: any EventLoop,
        done: @escaping @Sendable (CommitOutcome) -> Void
    ) {
        thread.submit { _ in
            var outcome: CommitOutcome
            do throws(BatchWriteError) {
                try store.write(batch)
                outcome = .written(stored: batch.count, failure: nil)
            } catch {
                outcome = .written(stored: error.stored, failure: error)
            }
            do {
                try store.synchronize()
            } catch {
                // The disk did not confirm the data: whether anything since
                // the last good sync is on it is unknown.
                outcome = .syncFailed(error)
            }
            let finished = outcome
            loop.execute { done(finished) }
        }
    }

    /// Runs `body` on the writer's thread, then calls `done` on `loop` with its result.
    func read<T: Sendable>(
        _ body: @escaping @Sendable (any ListStore) throws -> T, on loop: any EventLoop,
        done: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let store = self.store
        thread.submit { _ in
            let result = Result { try body(store) }
            loop.execute { done(result) }
        }
    }

    /// Runs `body` on the writer's thread after every batch handed over before it.
    func run<T: Sendable>(_ body: @escaping @Sendable (any ListStore) throws -> T) async throws -> T {
        let store = self.store
        return try await withCheckedThrowingContinuation { continuation in
            thread.submit { _ in continuation.resume(with: Result { try body(store) }) }
        }
    }

    func shutdown() {
        thread.shutdownGracefully { _ in }
    }
}
