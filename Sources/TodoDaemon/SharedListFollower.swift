import Foundation
import NIOCore
import TodoOwner
import TodoSharedStore
import TodoStoreInterface
import TodoViewModels

/// A list several instances share (`--store postgres://…`): when to commit
/// (`ListOwner.commitWaiting`, through `SharedListCommitter`), take the head
/// lock, or read what the others committed. What those reads
/// bring is applied by the state (`OwnerState.integrate`), which carries this
/// instance's requests out again on the result.
///
/// **Optimistic, then in order.** Requests are carried out on this
/// instance's memory at once, as for a list of its own, and the turn's
/// transactions go to the store as one batch planned on the revision this
/// instance last saw. The store takes the batch only if no other instance
/// committed since; then the transactions keep the revisions they were
/// given, and are announced and answered as usual.
///
/// **Planned again, under the lock.** If another instance came first (the
/// store refused the batch, or announced a newer revision before it was
/// sent), this instance takes the list's head lock, which brings what the
/// others committed, integrates it, and commits its own requests carried out
/// again before letting go. Replies are sent only once committed; nothing is
/// lost.
///
/// **Announced.** Every commit notifies every instance with its revision;
/// an instance behind it reads the change log from its own revision on.
final class SharedListFollower: Sendable {
    let store: any SharedListStore
    let loop: any EventLoop
    /// On `loop` only.
    let policy: NIOLoopBoundBox<Policy>

    struct Policy {
        /// The newest revision any instance announced.
        var announcedRevision = 0
        /// The read under way (catching up, or the head lock).
        var storeRead: StoreRead?
        /// When another instance's commit was last applied.
        var otherCommitApplied = NIODeadline.distantPast
        /// How long to wait before reading again after a failed read.
        var catchUpPause = SharedListFollower.firstCatchUpPause
        /// Why the store was last out of reach (for the refusals meanwhile).
        var lastStoreProblem = "no answer"
        /// The list replaced under this instance, while it reloads (`reload`).
        var moved: SharedListMoved?
    }

    /// The store call under way, besides a commit.
    enum StoreRead {
        /// Reading what other instances committed.
        case catchUp
        /// Taking the head lock, to commit under it (`commitUnderLock`).
        case lock
        /// A catch-up due shortly (`readSpacing`).
        case spaced
        /// Reloading a list replaced under this instance (`reload`).
        case reload
    }

    init(store: any SharedListStore, loop: any EventLoop) {
        self.store = store
        self.loop = loop
        policy = .makeBoxSendingValue(Policy(), eventLoop: loop)
    }

    /// At the end of every turn: sends every transaction not yet stored to
    /// the shared store, on top of the last revision this instance applied,
    /// unless a commit or read is under way.
    func turnEnded(_ owner: ListOwner) {
        let (canCommit, reachable, published) = owner.state.withValue { ($0.canCommit, $0.storeReachable, $0.publishedRevision) }
        guard canCommit else { return }
        if let moved = policy.value.moved {
            // Planned on the list that was replaced: refused, not stored into the new one.
            owner.state.withValue { $0.takeBack(because: BatchWriteError(stored: 0, underlying: moved)) }
            return
        }
        // A read spaced out gives way (the lock brings what it would); any
        // other read's end starts the commit.
        if policy.value.storeRead == .spaced { policy.value.storeRead = nil }
        guard policy.value.storeRead == nil else { return }
        guard reachable else {
            // Out of reach: refuse at once rather than let each edit wait
            // for a timeout. The retries in the background (and the
            // watcher) tell when it is back.
            let failure = BatchWriteError(
                stored: 0, underlying: StoreUnavailable.unreachable(server: store.server, reason: policy.value.lastStoreProblem))
            owner.state.withValue { $0.takeBack(because: failure) }
            return
        }
        let policy = self.policy.value
        if policy.announcedRevision > published || policy.otherCommitApplied + Self.othersActive > .now() {
            // Another instance committed since, and a batch planned without
            // its transactions would be refused; or others are busy, and one
            // of them may commit first. Taking the lock costs two round
            // trips; a refusal costs one and the lock after it.
            commitUnderLock(owner)
            return
        }
        commitBatch(owner)
    }

    /// Commits the transactions not yet stored, planned on the revision last published.
    private func commitBatch(_ owner: ListOwner) {
        owner.commitWaiting { outcome in self.committed(outcome, owner) }
    }

    /// Takes the list's head lock, applies what the other instances
    /// committed, carries this instance's requests out again on the result,
    /// and commits them before letting go: planned on the newest state with
    /// nobody able to come first, the batch cannot be refused. (Committing
    /// optimistically again instead can lose again, and with three busy
    /// instances mostly did: as many refusals as commits.)
    private func commitUnderLock(_ owner: ListOwner) {
        policy.value.storeRead = .lock
        let published = owner.state.value.publishedRevision
        store.lock(after: published, limit: Self.catchUpLimit, on: loop).whenComplete { result in
            switch result {
            case .success(let missed):
                self.storeAnswered(owner)
                // Nothing missed: what is planned is planned on the newest state.
                let others = missed.isEmpty ? [] : self.integrate(missed, owner)
                // Only now: nothing may start another commit while the lock is this one's.
                self.policy.value.storeRead = nil
                let (nothingToCommit, published) = owner.state.withValue { ($0.unpublished.isEmpty, $0.publishedRevision) }
                if missed.count == Self.catchUpLimit || nothingToCommit {
                    // More to read than one read brings, or nothing left to commit.
                    self.store.unlock(on: self.loop)
                    if missed.count == Self.catchUpLimit {
                        self.policy.value.announcedRevision = max(self.policy.value.announcedRevision, published + 1)
                    }
                } else {
                    // Under the lock nobody commits: this instance has everything.
                    self.policy.value.announcedRevision = published
                    self.commitBatch(owner)
                }
                // Announced once the lock is let go of or the batch is on its
                // way: encoding the others' events (a third of the work of
                // integrating them) does not hold the lock, which every
                // instance waits for in turn. Their revisions come before the
                // batch's, which is announced on its answer.
                owner.state.withValue { state in others.forEach { state.publish($0) } }
            case .failure(let error):
                self.policy.value.storeRead = nil
                self.lostStore(error, owner)
            }
            self.catchUpIfBehind(owner)
            owner.finishTurn()
        }
    }

    /// What follows a commit, once the state has its outcome.
    private func committed(_ outcome: CommitOutcome, _ owner: ListOwner) {
        switch outcome {
        case .conflict(let head):
            // Another instance came first.
            policy.value.announcedRevision = max(policy.value.announcedRevision, head)
            commitUnderLock(owner)
        case .notStored(let error):
            lostStore(error, owner)
            // A commit whose answer was lost may have been stored all the
            // same: the change log says, once the store is back.
            let published = owner.state.value.publishedRevision
            policy.value.announcedRevision = max(policy.value.announcedRevision, published + 1)
        case .committed, .written, .syncFailed:
            break
        }
        catchUpIfBehind(owner)
    }

    /// Applies what others committed (their transactions are returned for
    /// publishing), noting when another instance's commit was last applied.
    func integrate(_ missed: [StoredTransaction], _ owner: ListOwner) -> [PendingTransaction] {
        owner.state.withValue { state in
            let published = state.publishedRevision
            if missed.contains(where: { $0.revision > published && $0.instance != store.instance }) {
                policy.value.otherCommitApplied = .now()
            }
            return state.integrate(missed)
        }
    }

    func close() {
        store.close()
    }
}
