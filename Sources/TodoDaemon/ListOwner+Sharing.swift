import Foundation
import NIOCore
import TodoModel
import TodoProtocol
import TodoStorage
import TodoViewModels

/// A list several instances share (`--store postgres://…`).
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
/// others committed. It takes its own transactions back (newest first),
/// applies the others' in their order and announces each to its
/// subscribers, carries out its own requests again on the new state, in
/// their order, and commits them before letting go. An edit of an item
/// another instance deleted now gets `todo.notFound`, as it would have done
/// had it come later. Replies are sent only once committed; nothing is
/// lost, and the list equals the transactions applied one by one in
/// revision order.
///
/// **Announced.** Every commit notifies every instance with its revision;
/// an instance behind it reads the change log from its own revision on.
extension ListOwner {
    /// Sends every transaction not yet stored to the shared store, on top of
    /// the last revision this instance applied.
    func commitShared(to store: any SharedListStore) {
        // A read spaced out gives way (the lock brings what it would); any
        // other read's end starts the commit.
        if storeRead == .spaced { storeRead = nil }
        guard storeRead == nil else { return }
        guard storeReachable else {
            // Out of reach: refuse at once rather than let each edit wait
            // for a timeout. The retries in the background (and the
            // watcher) tell when it is back.
            takeBack(because: BatchWriteError(stored: 0, underlying: StoreUnavailable.unreachable(server: store.server, reason: lastStoreProblem)))
            return
        }
        if announcedRevision > publishedRevision || otherCommitApplied + Self.othersActive > .now() {
            // Another instance committed since, and a batch planned without
            // its transactions would be refused; or others are busy, and one
            // of them may commit first. Taking the lock costs two round
            // trips; a refusal costs one and the lock after it.
            commitUnderLock(to: store)
            return
        }
        inFlight = unpublished.count
        store.commit(storedBatch(for: store), after: publishedRevision, on: loop).whenComplete { result in
            self.finishCommit(result, to: store)
        }
    }

    /// The transactions not yet stored, as the store keeps them.
    private func storedBatch(for store: any SharedListStore) -> [StoredTransaction] {
        unpublished.map { transaction in
            StoredTransaction(
                revision: transaction.revision, instance: store.instance, cause: transaction.cause.map(Self.json),
                write: transaction.write ?? ListWrite())
        }
    }

    /// Takes the list's head lock, applies what the other instances
    /// committed, carries this instance's requests out again on the result,
    /// and commits them before letting go: planned on the newest state with
    /// nobody able to come first, the batch cannot be refused. (Committing
    /// optimistically again instead can lose again, and with three busy
    /// instances mostly did: as many refusals as commits.)
    private func commitUnderLock(to store: any SharedListStore) {
        storeRead = .lock
        store.lock(after: publishedRevision, limit: Self.catchUpLimit, on: loop).whenComplete { result in
            switch result {
            case .success(let missed):
                self.storeAnswered()
                // Nothing missed: what is planned is planned on the newest state.
                let others = missed.isEmpty ? [] : self.integrate(missed)
                // Only now: nothing may start another commit while the lock is this one's.
                self.storeRead = nil
                if missed.count == Self.catchUpLimit || self.unpublished.isEmpty {
                    // More to read than one read brings, or nothing left to commit.
                    store.unlock(on: self.loop)
                    if missed.count == Self.catchUpLimit { self.announcedRevision = max(self.announcedRevision, self.publishedRevision + 1) }
                } else {
                    // Under the lock nobody commits: this instance has everything.
                    self.announcedRevision = self.publishedRevision
                    self.inFlight = self.unpublished.count
                    store.commit(self.storedBatch(for: store), after: self.publishedRevision, on: self.loop).whenComplete { result in
                        self.finishCommit(result, to: store)
                    }
                }
                // Announced once the lock is let go of or the batch is on its
                // way: encoding the others' events (a third of the work of
                // integrating them) does not hold the lock, which every
                // instance waits for in turn. Their revisions come before the
                // batch's, which is announced on its answer.
                others.forEach(self.publish)
            case .failure(let error):
                self.storeRead = nil
                self.lostStore(error)
            }
            self.catchUpIfBehind()
            self.finishTurn()
        }
    }

    private func finishCommit(_ result: Result<SharedCommit, any Error>, to store: any SharedListStore) {
        let committed = inFlight
        inFlight = 0
        switch result {
        case .success(.committed):
            storeReachable = true
            for transaction in unpublished.prefix(committed) {
                publish(transaction)
                publishedRevision = transaction.revision
            }
            unpublished.removeFirst(committed)
        case .success(.conflict(let head)):
            // Another instance came first.
            storeReachable = true
            announcedRevision = max(announcedRevision, head)
            commitUnderLock(to: store)
        case .failure(let error):
            lostStore(error)
            // A commit whose answer was lost may have been stored all the
            // same: the change log says, once the store is back.
            announcedRevision = max(announcedRevision, publishedRevision + 1)
        }
        catchUpIfBehind()
        finishTurn()
    }

    /// A call to the store succeeded: it is in reach, and the next failure
    /// is retried after the shortest pause again.
    private func storeAnswered() {
        storeReachable = true
        catchUpPause = Self.firstCatchUpPause
    }

    /// A call to the store failed: what waited for it is refused now, not
    /// after the outage, and the store is tried again after a pause. It
    /// counts as out of reach when the error says so, or when the caller
    /// cannot go on without it (`unreachable`: a catch-up read).
    private func lostStore(_ error: any Error, unreachable: Bool = false) {
        if unreachable || error is StoreUnavailable {
            lastStoreProblem = Self.problem(error)
            storeReachable = false
        }
        if !unpublished.isEmpty { takeBack(because: BatchWriteError(stored: 0, underlying: error)) }
        retryCatchUp()
    }

    /// The store announced `revision` (nil: it was out of reach, and what
    /// was committed meanwhile was not announced).
    func announced(_ revision: Int?) {
        storeReachable = true
        announcedRevision = max(announcedRevision, revision ?? publishedRevision + 1)
        catchUpIfBehind()
        finishTurn()
    }

    /// Reads the transactions this instance has not applied, if any were
    /// announced and no commit or read is under way.
    func catchUpIfBehind() {
        guard let sharedStore, storeRead == nil, inFlight == 0, announcedRevision > publishedRevision else { return }
        let due = otherCommitApplied + Self.readSpacing
        if due > .now() {
            // Another instance is busy: its next commits ride along with this one.
            storeRead = .spaced
            loop.scheduleTask(deadline: due) {
                guard self.storeRead == .spaced else { return }  // a commit took over
                self.storeRead = nil
                self.catchUpIfBehind()
                self.finishTurn()
            }
            return
        }
        storeRead = .catchUp
        sharedStore.transactions(after: publishedRevision, limit: Self.catchUpLimit, on: loop).whenComplete { result in
            self.storeRead = nil
            switch result {
            case .success(let missed):
                self.storeAnswered()
                self.integrate(missed).forEach(self.publish)
                if missed.count < Self.catchUpLimit {
                    // All read: a forced read (after a loss) may have found nothing new.
                    self.announcedRevision = min(self.announcedRevision, self.publishedRevision)
                }
                self.catchUpIfBehind()
            case .failure(let error):
                // Unreachable, whatever the error: the read is tried again after a pause.
                self.lostStore(error, unreachable: true)
            }
            self.finishTurn()
        }
    }

    /// The store call under way on a shared list, besides a commit.
    enum StoreRead {
        /// Reading what other instances committed.
        case catchUp
        /// Taking the head lock, to commit under it (`commitUnderLock`).
        case lock
        /// A catch-up due shortly (`readSpacing`).
        case spaced
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

    /// Tries the store again after a pause that grows to 5 s while it stays
    /// out of reach (the watcher also announces when it is back).
    private func retryCatchUp() {
        let pause = catchUpPause
        catchUpPause = min(catchUpPause * 2, 5)
        loop.scheduleTask(in: .milliseconds(Int64(pause * 1000))) {
            self.catchUpIfBehind()
            self.finishTurn()
        }
    }

    static let firstCatchUpPause = 0.25

    /// What an error from the store says, for the refusals while it is out of reach.
    static func problem(_ error: any Error) -> String {
        if case StoreUnavailable.unreachable(_, let reason) = error { return reason }
        return String(describing: error)
    }

    /// Applies what other instances committed on top of what this one has
    /// announced, and carries out again what this one had not yet stored.
    /// Returns the others' transactions, for the caller to `publish` (their
    /// events and history) in order, before any of this instance's own.
    func integrate(_ missed: [StoredTransaction]) -> [PendingTransaction] {
        let replanned = unpublished
        for transaction in replanned.reversed() {
            if let applied = transaction.applied { viewModel.revert(applied) }
        }
        unpublished = []
        revision = publishedRevision
        let requests = requestsToCarryOutAgain(replanned)

        var others: [PendingTransaction] = []
        for entry in missed where entry.revision > publishedRevision {
            guard entry.revision == publishedRevision + 1 else { break }  // read the rest next time
            if entry.instance != sharedStore?.instance { otherCommitApplied = .now() }
            let outcome = viewModel.applyStored(entry.write)
            if let next = outcome.nextEvent { scheduleTick(at: next) }
            revision += 1
            others.append(
                PendingTransaction(
                    revision: revision, changes: outcome.changes, cause: entry.cause.flatMap(Self.cause(fromJSON:)), write: nil,
                    applied: nil, removedView: entry.write.removedViews.first))
            publishedRevision = revision
        }

        carryOut(requests)
        for transaction in replanned where transaction.request == nil {
            if transaction.isTick {
                scheduleTick(at: Date())
            } else if transaction.applied == nil {
                // A change of this instance's own (reloaded settings): still in memory, announced anew.
                _ = record(transaction.changes, write: transaction.write, applied: nil, cause: transaction.cause)
            }
        }
        didChange()
        return others
    }

    /// A request to carry out again, and where its reply goes.
    private struct Replanned {
        var connection: Int
        var request: IncomingRequest
        /// The revision its reply reported, which orders the requests.
        var order: Int
        /// Its reply's place: (reply, part) on its connection; nil for a notification.
        var place: (reply: Int, part: Int)?
    }

    /// A request that made a transaction: its connection, the transaction's
    /// revision, and the request's id.
    private struct MadeTransaction: Hashable {
        var connection: Int
        var revision: Int
        var id: RequestID?
    }

    /// Every request whose reply reported a revision that is taken back,
    /// in the order they were carried out; subscriptions they made end (they
    /// are made again).
    private func requestsToCarryOutAgain(_ replanned: [PendingTransaction]) -> [Replanned] {
        var found: [Replanned] = []
        let changing = Set(
            replanned.compactMap { transaction in
                transaction.request.map { MadeTransaction(connection: $0.connection, revision: transaction.revision, id: $0.request.id) }
            })
        for (id, connection) in connections.sorted(by: { $0.key < $1.key }) where connection.hasReplies {
            for index in connection.firstReply..<connection.replies.count {
                for (partIndex, part) in connection.replies[index].parts.enumerated() {
                    guard part.durableAt > publishedRevision, let request = part.request else { continue }
                    // A part of an import only staged text: nothing to plan again.
                    if request.method == "todo.import",
                        !changing.contains(MadeTransaction(connection: id, revision: part.durableAt, id: request.id))
                    {
                        continue
                    }
                    if let subscription = part.subscription, let ended = subscriptions.removeValue(forKey: subscription) {
                        viewModel.closeView(ended.view)
                    }
                    found.append(Replanned(connection: id, request: request, order: part.durableAt, place: (index, partIndex)))
                }
            }
        }
        for transaction in replanned {
            // Notifications (no id) have no reply to find them by.
            guard let made = transaction.request, made.request.id == nil else { continue }
            found.append(Replanned(connection: made.connection, request: made.request, order: transaction.revision, place: nil))
        }
        // Stable: requests of one revision keep their order on their connection.
        return found.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(\.element)
    }

    private func carryOut(_ requests: [Replanned]) {
        for replanned in requests {
            guard let connection = connections[replanned.connection] else { continue }
            let part: PendingReply.Part?
            if replanned.request.method == "todo.import" {
                // Its staged text is spent: the client sends the file again.
                part = replanned.request.id.map { id in
                    PendingReply.Part(
                        id: id, object: Self.object(MessageEncoding.error(id: id, RPCError(TodoError.importOutdated))), durableAt: 0)
                }
            } else {
                part = answer(.success(replanned.request), from: connection)
            }
            if let place = replanned.place, let part {
                connection.replies[place.reply].parts[place.part] = part
            }
            touched.insert(connection.id)
        }
        // A reply that reported a revision no longer to come waits for the newest.
        for connection in connections.values where connection.hasReplies {
            for index in connection.firstReply..<connection.replies.count {
                for partIndex in connection.replies[index].parts.indices
                where connection.replies[index].parts[partIndex].durableAt > revision {
                    connection.replies[index].parts[partIndex].durableAt = revision
                }
            }
        }
    }

    static func json(_ cause: Cause) -> String {
        String(decoding: MessageEncoding.json(cause), as: UTF8.self)
    }

    static func cause(fromJSON text: String) -> Cause? {
        try? causeDecoder.decode(Cause.self, from: Data(text.utf8))
    }

    /// One for every transaction read: a decoder is costly to make.
    private static let causeDecoder = JSONDecoder()

    /// Starts listening for other instances' commits, and reads the change
    /// log every `pollInterval` seconds as well: a notification can be lost
    /// with no sign (a listening connection cut off by a network that drops
    /// packets stays open until something is sent on it), and an instance
    /// that only watches would then stay behind for good. The read also
    /// tells an idle instance that the store is out of reach.
    public func startWatchingStore(pollInterval: Int64 = 5) {
        guard sharedStore != nil else { return }
        loop.scheduleRepeatedTask(initialDelay: .seconds(pollInterval), delay: .seconds(pollInterval)) { _ in
            self.announcedRevision = max(self.announcedRevision, self.publishedRevision + 1)
            self.catchUpIfBehind()
            self.finishTurn()
        }
        sharedStore?.watch { revision in
            // Checked and handed over under the lock `shutdown()` takes: a
            // task handed to a loop that has stopped is dropped with an error.
            self.isShutDown.withLock { isShutDown in
                if !isShutDown { self.loop.execute { self.announced(revision) } }
            }
        }
    }
}

