import Foundation
import TodoModel
import TodoProtocol
import TodoStoreInterface
import TodoViewModels
import TodoViewState

/// Transactions: numbered when applied to memory, handed out in batches to
/// commit, and published (or taken back) by how the commit went.
extension OwnerState {
    /// Numbers a transaction applied to memory and queues it for the next
    /// batch. Returns the revision a reply about it must wait for.
    mutating func record(
        _ changes: [ViewID: TodoListChange], write: ListWrite?, applied: AppliedChange?, cause: Cause?, isTick: Bool = false,
        removedView: String? = nil
    ) -> Int {
        guard !changes.isEmpty || write != nil else { return revision }
        revision += 1
        unpublished.append(
            PendingTransaction(
                revision: revision, changes: changes, cause: cause, write: write, applied: applied, isTick: isTick,
                removedView: removedView, request: currentRequest))
        changed = true
        return revision
    }

    /// The transactions to commit next, all those applied and not yet
    /// durable, if no commit is under way (nil otherwise, or if nothing
    /// waits): they are in flight until `finishWrite` or `committed`.
    /// Those that arrive meanwhile go in the next batch (group commit).
    public mutating func takeBatch() -> ArraySlice<PendingTransaction>? {
        guard canCommit else { return nil }
        inFlight = unpublished.count
        return unpublished[...]
    }

    /// Whether transactions wait for a commit and none is under way (nor
    /// ruled out for good by a failed sync): `takeBatch` would hand them out.
    public var canCommit: Bool { inFlight == 0 && failedSync == nil && !unpublished.isEmpty }

    /// The batch in flight went as `outcome` says.
    public mutating func finishCommit(_ outcome: CommitOutcome) {
        switch outcome {
        case .written(let stored, let failure): finishWrite(stored: stored, failure: failure)
        case .syncFailed(let error): syncFailed(error)
        case .committed:
            storeReachable = true
            committed()
        case .conflict:
            storeReachable = true
            commitAbandoned()
        case .notStored: commitAbandoned()
        }
    }

    /// A batch of a list of its own went to the store: the first `stored`
    /// of its writes are stored and durable; if fewer than all, `failure`
    /// says why the next one was not (the rest were not tried).
    mutating func finishWrite(stored: Int, failure: BatchWriteError?) {
        let written = unpublished.prefix(inFlight)
        inFlight = 0
        // The transactions before the first failed write are durable
        // (a tick or a reloaded setting may have nothing to write).
        var writes = 0
        var durable = 0
        for transaction in written {
            if transaction.write != nil {
                if writes == stored { break }
                writes += 1
            }
            durable += 1
        }
        publishFirst(durable)
        if let failure { takeBack(because: failure) }
    }

    /// Every transaction in flight is committed (a shared list's batch).
    mutating func committed() {
        let count = inFlight
        inFlight = 0
        publishFirst(count)
    }

    /// The commit in flight did not happen (or its outcome is unknown and the
    /// change log will tell): its transactions wait for the next batch.
    mutating func commitAbandoned() {
        inFlight = 0
    }

    /// The disk did not confirm the data: nothing since the last good sync
    /// may be acknowledged or announced, ever.
    mutating func syncFailed(_ error: any Error) {
        inFlight = 0
        failedSync = String(describing: error)
    }

    private mutating func publishFirst(_ count: Int) {
        for transaction in unpublished.prefix(count) {
            publish(transaction)
            publishedRevision = transaction.revision
        }
        // Usually all of them: emptied in place, not shifted.
        if count == unpublished.count {
            unpublished.removeAll(keepingCapacity: true)
        } else {
            unpublished.removeFirst(count)
        }
    }

    /// Reverts every transaction not yet durable, newest first, and answers
    /// whatever reported them with the error `failure` stands for.
    public mutating func takeBack(because failure: BatchWriteError) {
        let error =
            failure.underlying is StoreUnavailable || failure.underlying is SharedListMoved
            ? RPCError.storeUnavailable(String(describing: failure.underlying))
            : RPCError.storageFailure(String(describing: failure))
        var retryTick = false
        for transaction in unpublished.reversed() {
            if let applied = transaction.applied { viewModel.revert(applied) }
            retryTick = retryTick || transaction.isTick
        }
        unpublished = []
        inFlight = 0
        revision = publishedRevision
        failReplies(after: publishedRevision, with: error)
        resetSubscribersAhead()
        if retryTick { requestTick(at: now().addingTimeInterval(60)) }
        changed = true
    }

    // MARK: Time and settings

    /// Fires the reminders due and re-words dates; asks for the next tick.
    public mutating func tick() {
        let outcome = viewModel.tick()
        _ = record(outcome.changes, write: outcome.write, applied: outcome.applied, cause: nil, isTick: true)
        if let next = outcome.nextEvent { requestTick(at: next) }
    }

    /// A new reminder age (a reloaded configuration). Returns whether it
    /// changed anything: then the clock should tick at once.
    public mutating func changeReminderAge(to age: TimeInterval) -> Bool {
        guard age != viewModel.reminderAge else { return false }
        viewModel.changeReminderAge(to: age)
        return true
    }

    /// Reloaded desktop settings: every view's `desktopReminders` follows at
    /// once. Returns whether they changed (the clock should tick at once:
    /// a longer lead may fire "due soon" reminders now).
    public mutating func changeDesktopSettings(_ settings: DesktopReminderSettings, dueSoonLead: TimeInterval) -> Bool {
        guard settings != viewModel.desktopSettings || dueSoonLead != viewModel.dueSoonLead else { return false }
        let outcome = viewModel.changeDesktopSettings(settings, dueSoonLead: dueSoonLead)
        _ = record(outcome.changes, write: nil, applied: nil, cause: nil)
        return true
    }

    /// Replaces the declared fields (a reloaded todod.conf): every view's
    /// query is read again and every view is sent whole. Nothing is stored.
    public mutating func changeFields(_ fields: FieldCatalog) {
        guard fields != viewModel.fields else { return }
        let outcome = viewModel.replaceFields(fields)
        _ = record(outcome.changes, write: nil, applied: nil, cause: nil)
    }
}
