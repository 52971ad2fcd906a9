import Foundation
import NIOCore
import TodoOwner
import TodoSharedStore
import TodoStoreInterface

/// Reading what the other instances committed: when they announce it, every
/// few seconds in case an announcement was lost, and after the store was out
/// of reach.
extension SharedListFollower {
    /// Starts listening for other instances' commits, and reads the change
    /// log every `pollInterval` seconds as well: a notification can be lost
    /// with no sign (a listening connection cut off by a network that drops
    /// packets stays open until something is sent on it), and an instance
    /// that only watches would then stay behind for good. The read also
    /// tells an idle instance that the store is out of reach.
    func start(_ owner: ListOwner) {
        start(owner, pollInterval: 5)
    }

    func start(_ owner: ListOwner, pollInterval: Int64) {
        loop.scheduleRepeatedTask(initialDelay: .seconds(pollInterval), delay: .seconds(pollInterval)) { _ in
            let published = owner.state.value.publishedRevision
            self.policy.value.announcedRevision = max(self.policy.value.announcedRevision, published + 1)
            self.catchUpIfBehind(owner)
            owner.finishTurn()
        }
        store.watch { revision in
            // Checked and handed over under the lock `shutdown()` takes: a
            // task handed to a loop that has stopped is dropped with an error.
            owner.isShutDown.withLock { isShutDown in
                if !isShutDown { self.loop.execute { self.announced(revision, owner) } }
            }
        }
    }

    /// The store announced `revision` (nil: it was out of reach, and what
    /// was committed meanwhile was not announced).
    private func announced(_ revision: Int?, _ owner: ListOwner) {
        let published = owner.state.withValue { state in
            state.storeReachable = true
            return state.publishedRevision
        }
        policy.value.announcedRevision = max(policy.value.announcedRevision, revision ?? published + 1)
        catchUpIfBehind(owner)
        owner.finishTurn()
    }

    /// Reads the transactions this instance has not applied, if any were
    /// announced and no commit or read is under way.
    func catchUpIfBehind(_ owner: ListOwner) {
        let (inFlight, published) = owner.state.withValue { ($0.inFlight, $0.publishedRevision) }
        guard policy.value.storeRead == nil, inFlight == 0, policy.value.announcedRevision > published else { return }
        let due = policy.value.otherCommitApplied + Self.readSpacing
        if due > .now() {
            // Another instance is busy: its next commits ride along with this one.
            policy.value.storeRead = .spaced
            loop.scheduleTask(deadline: due) {
                guard self.policy.value.storeRead == .spaced else { return }  // a commit took over
                self.policy.value.storeRead = nil
                self.catchUpIfBehind(owner)
                owner.finishTurn()
            }
            return
        }
        policy.value.storeRead = .catchUp
        store.transactions(after: published, limit: Self.catchUpLimit, on: loop).whenComplete { result in
            self.policy.value.storeRead = nil
            switch result {
            case .success(let missed):
                self.storeAnswered(owner)
                let others = self.integrate(missed, owner)
                let published = owner.state.withValue { state in
                    others.forEach { state.publish($0) }
                    return state.publishedRevision
                }
                if missed.count < Self.catchUpLimit {
                    // All read: a forced read (after a loss) may have found nothing new.
                    self.policy.value.announcedRevision = min(self.policy.value.announcedRevision, published)
                }
                self.catchUpIfBehind(owner)
            case .failure(let error):
                // Unreachable, whatever the error: the read is tried again after a pause.
                self.lostStore(error, owner, unreachable: true)
            }
            owner.finishTurn()
        }
    }

    /// A call to the store succeeded: it is in reach, and the next failure
    /// is retried after the shortest pause again.
    func storeAnswered(_ owner: ListOwner) {
        owner.state.value.storeReachable = true
        policy.value.catchUpPause = Self.firstCatchUpPause
    }

    /// A call to the store failed: what waited for it is refused now, not
    /// after the outage, and the store is tried again after a pause. It
    /// counts as out of reach when the error says so, or when the caller
    /// cannot go on without it (`unreachable`: a catch-up read).
    func lostStore(_ error: any Error, _ owner: ListOwner, unreachable: Bool = false) {
        if let moved = error as? SharedListMoved {
            reload(after: moved, owner)
            return
        }
        let isUnreachable = unreachable || error is StoreUnavailable
        if isUnreachable { policy.value.lastStoreProblem = Self.problem(error) }
        owner.state.withValue { state in
            if isUnreachable { state.storeReachable = false }
            if !state.unpublished.isEmpty { state.takeBack(because: BatchWriteError(stored: 0, underlying: error)) }
        }
        retryCatchUp(owner)
    }

    /// Tries the store again after a pause that grows to 5 s while it stays
    /// out of reach (the watcher also announces when it is back).
    private func retryCatchUp(_ owner: ListOwner) {
        let pause = policy.value.catchUpPause
        policy.value.catchUpPause = min(pause * 2, 5)
        loop.scheduleTask(in: .milliseconds(Int64(pause * 1000))) {
            self.catchUpIfBehind(owner)
            owner.finishTurn()
        }
    }

    /// What an error from the store says, for the refusals while it is out of reach.
    static func problem(_ error: any Error) -> String {
        if case StoreUnavailable.unreachable(_, let reason) = error { return reason }
        return String(describing: error)
    }

    /// The least time between another instance's commit applied here and
    /// the next read of the change log. While others commit a thousand
    /// times a second, each read then brings several of their commits
    /// instead of one: reads cost the server and this instance as much per
    /// read as per commit read. An idle list's first change is read at once.
    static let readSpacing = TimeAmount.milliseconds(2)

    /// How long after another instance's commit this one commits under the
    /// head lock rather than optimistically.
    static let othersActive = TimeAmount.seconds(1)

    /// How many missed transactions one read brings; more are read in turn.
    static let catchUpLimit = 2000

    static let firstCatchUpPause = 0.25
}
