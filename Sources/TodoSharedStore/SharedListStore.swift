import NIOCore
import TodoStoreInterface

/// A store several todod instances share: one list, one history, one order.
///
/// The store numbers transactions: a batch is committed only on top of the
/// revision the instance last saw (`commit(_:after:on:)`), so every instance
/// applies every transaction in the same order and holds the same list. A
/// batch planned on an older state is refused (`.conflict`); the instance
/// then takes the head lock (`lock(after:limit:on:)`), which also brings
/// what it missed, applies that, plans its own requests again on the new
/// state, and commits them under the lock, where nobody can come first.
///
/// Commits and catch-up reads run on the state owner's event loop (`on`
/// loop): they are the daemon's busiest calls, and a thread between the
/// owner and the server costs as much as the round trip. Their futures
/// complete on that loop; the other calls block, on the owner's writer thread.
public protocol SharedListStore: ListStore {
    /// This instance's name, recorded with every transaction it commits.
    var instance: String { get }

    /// The server, as errors name it (no secrets).
    var server: String { get }

    /// The list as of one revision, read in one snapshot, and the name of
    /// its history (the epoch clients resume in, the same on every instance).
    func loadShared() throws -> SharedSnapshot

    /// Commits `batch` (revisions `base + 1`, `base + 2`, …) in one
    /// transaction if the list is still at `base`; durable when the future
    /// succeeds. Under the head lock, commits in its transaction and lets go.
    func commit(_ batch: [StoredTransaction], after base: Int, on loop: any EventLoop) -> EventLoopFuture<SharedCommit>

    /// The transactions after `revision`, oldest first, at most `limit`.
    func transactions(after revision: Int, limit: Int, on loop: any EventLoop) -> EventLoopFuture<[StoredTransaction]>

    /// Takes the list's head lock, so that no instance commits until this one
    /// has (`commit`) or lets go (`unlock`), and reads the transactions after
    /// `base` (at most `limit`).
    func lock(after base: Int, limit: Int, on loop: any EventLoop) -> EventLoopFuture<[StoredTransaction]>

    /// Lets go of the head lock without committing.
    func unlock(on loop: any EventLoop)

    /// Calls `announce` with the revision of every commit any instance makes
    /// from now on, and with nil after the store was out of reach (whatever
    /// was committed meanwhile was not announced).
    func watch(_ announce: @escaping @Sendable (Int?) -> Void)

    /// Whether this instance holds the right to sync the list with a
    /// calendar server: one instance of a shared list at a time. The first
    /// call starts trying to take it; an instance that dies lets go of it
    /// (its session ends), and another takes it within seconds.
    func holdsSyncLease() -> Bool

    /// Gives the list a new epoch if it still has `epoch`: called when the
    /// list went back (a backup restored), before reloading it, so that
    /// clients do not resume on revisions that now mean other changes.
    /// The next id becomes at least `nextID`, so that what the instance
    /// saves aside keeps ids that no new item takes.
    func startNewHistory(replacing epoch: String, nextID: Int64) throws

    /// Stops watching and closes the store's connections.
    func close()
}
