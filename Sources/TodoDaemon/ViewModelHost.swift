import Foundation
import NIOPosix
import TodoModel
import TodoProtocol
import TodoViewModels

/// The one owner of the to-do state: every command and every subscription
/// goes through this actor, one at a time.
///
/// **Revisions.** Every transaction that changes something (a command, a
/// `transaction`, a shared view's new options, a reminder firing) gets the
/// next revision number and is announced to every subscription as one event.
/// The epoch names the history those numbers belong to: it survives a clean
/// restart (with the recent history) and changes after a crash.
///
/// **Group commit.** A command is committed to SQLite in the actor turn that
/// runs it, but only made durable by a sync of the write-ahead log that runs
/// on a thread pool while later commands go on; one sync covers every
/// command committed before it began. Events go out and replies are released
/// only after the sync that covers them, so nothing unsynced is ever
/// acknowledged or announced — and a client's events always come before the
/// reply to its request.
///
/// **Never waiting on clients.** Events go into each connection's sink, which
/// never blocks: a client that reads slowly cannot hold up this actor.
public actor ViewModelHost {
    public struct Options: Sendable {
        public var reminderAge: TimeInterval = 86_400
        /// How many transactions the resume history holds at most.
        public var historyRevisions = 1000
        /// How many bytes of change sets (in wire form) it holds at most.
        public var historyBytes = 4 << 20
        public init() {}
    }

    let viewModel: TodoListViewModel
    private let store: any TodoStore
    let options: Options
    /// Changes whenever history is lost: a new database or a crash.
    public let epoch: String
    /// The newest revision applied to the view model (committed, maybe not yet synced).
    public private(set) var revision: Int
    /// The newest revision that is durable and announced.
    public private(set) var publishedRevision: Int
    /// `publishedRevision` again, with the replies waiting for it to move on;
    /// usable without entering the actor.
    private nonisolated let durable: DurableRevision
    var history: ChangeHistory
    var unpublished: [PendingTransaction] = []
    private var syncing = false
    let didChange: @Sendable () -> Void
    private let syncFailed: @Sendable (any Error) -> Void
    private var timer: Task<Void, Never>?
    private var timerDeadline: Date?

    var subscriptions: [Int: Subscription] = [:]
    var nextSubscriptionID = 1
    var nextOwnViewID = 1
    var connections: [Int: any ConnectionSink] = [:]
    let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    struct PendingTransaction {
        var revision: Int
        var changes: [ViewID: TodoListChange]
        var cause: Cause?
    }

    struct Subscription {
        let id: Int
        let sink: any ConnectionSink
        let view: ViewID
        let watched: PropertySelection
        /// Events up to this revision are already in the state the subscriber holds.
        var seen: Int
    }

    /// Loads the list from `store`, and the resume record a clean shutdown
    /// left (if any, it is consumed). `didChange` is called after every
    /// change, connection and subscription (systemd's status line counts all
    /// three and reads them back); `syncFailed` is called when
    /// the disk refuses a sync, after which nothing more can be acknowledged.
    public init(
        store: any TodoStore,
        clock: TodoClock = TodoClock(),
        options: Options = Options(),
        didChange: @escaping @Sendable () -> Void = {},
        syncFailed: @escaping @Sendable (any Error) -> Void = { error in fatalError("sync failed: \(error)") }
    ) throws {
        viewModel = try TodoListViewModel(store: store, clock: clock, reminderAge: options.reminderAge)
        self.store = store
        self.options = options
        if let record = try store.resumeRecord() {
            epoch = record.epoch
            revision = record.revision
            history = ChangeHistory(record: record, revisionLimit: options.historyRevisions, byteLimit: options.historyBytes)
        } else {
            epoch = UUID().uuidString.lowercased()
            revision = 0
            history = ChangeHistory(revisionLimit: options.historyRevisions, byteLimit: options.historyBytes, floor: 0)
        }
        publishedRevision = revision
        durable = DurableRevision(revision)
        self.didChange = didChange
        self.syncFailed = syncFailed
    }

    public var itemCount: Int { viewModel.itemCount }

    public var subscriptionCount: Int { subscriptions.count }

    public var connectionCount: Int { connections.count }

    public var addPrompt: AddPromptViewModel { viewModel.addPrompt }

    // MARK: Commands

    /// Carries out a command. The result is durable once `waitUntilDurable`
    /// of the returned revision returns; the caller replies only then.
    public func perform(_ command: TodoCommand, cause: Cause? = nil) throws -> (outcome: CommandOutcome, durableAt: Int) {
        let outcome = try viewModel.perform(command)
        if let next = outcome.nextEvent { scheduleTick(at: next) }
        return (outcome, record(outcome.changes, cause: cause))
    }

    /// Carries out several commands as one transaction (see `TodoListViewModel.perform(transaction:)`).
    public func perform(transaction commands: [TodoCommand], cause: Cause? = nil) throws
        -> (outcome: TransactionOutcome, durableAt: Int)
    {
        let outcome = try viewModel.perform(transaction: commands)
        if let next = outcome.nextEvent { scheduleTick(at: next) }
        return (outcome, record(outcome.changes, cause: cause))
    }

    /// Numbers a transaction's changes and queues them for the next sync.
    /// Returns the revision a reply about them must wait for.
    func record(_ changes: [ViewID: TodoListChange], cause: Cause?) -> Int {
        guard !changes.isEmpty else { return revision }
        revision += 1
        unpublished.append(PendingTransaction(revision: revision, changes: changes, cause: cause))
        didChange()
        startSyncIfIdle()
        return revision
    }

    /// Returns once every transaction up to `revision` is durable and its
    /// events are in the subscribers' sinks; throws if the sync failed.
    /// Returns once every transaction up to `revision` is durable and its
    /// events are in the subscribers' sinks; throws if the sync failed.
    /// Needs no actor turn: replies wait here while commands go on.
    public nonisolated func waitUntilDurable(_ revision: Int) async throws {
        try await durable.wait(for: revision)
    }

    private func startSyncIfIdle() {
        guard !syncing, let newest = unpublished.last?.revision else { return }
        syncing = true
        let store = self.store
        Task {
            let result: Result<Void, any Error>
            do {
                try await NIOThreadPool.singleton.runIfActive { try store.synchronize() }
                result = .success(())
            } catch {
                result = .failure(error)
            }
            self.finishSync(upTo: newest, result)
        }
    }

    private func finishSync(upTo newest: Int, _ result: Result<Void, any Error>) {
        syncing = false
        if case .failure(let error) = result {
            // The disk did not confirm the data: nothing since the last good
            // sync may be acknowledged or announced.
            durable.fail(RPCError.storageFailure(String(describing: error)))
            syncFailed(error)
            return
        }
        let ready = unpublished.prefix { $0.revision <= newest }
        unpublished.removeFirst(ready.count)
        for transaction in ready {
            publish(transaction)
            publishedRevision = transaction.revision
        }
        durable.advance(to: publishedRevision)
        startSyncIfIdle()
    }

    /// Makes everything durable and keeps the resume record: called once,
    /// when the daemon stops and no client is left.
    public func persist() throws {
        try store.synchronize()
        for transaction in unpublished {
            publish(transaction)
            publishedRevision = transaction.revision
        }
        unpublished = []
        durable.advance(to: publishedRevision)
        try store.saveResumeRecord(history.record(epoch: epoch, revision: publishedRevision))
    }

    // MARK: Time

    /// Starts the timer that fires reminders and re-words dates: it wakes at
    /// the instant the view model names and asks it to catch up.
    public func startClock() {
        tick()
    }

    /// Applies a new reminder age (a reloaded configuration): reminders the
    /// new age makes due fire now, and the timer aims at the new next one.
    public func changeReminderAge(to age: TimeInterval) {
        guard age != viewModel.reminderAge else { return }
        viewModel.changeReminderAge(to: age)
        let running = timer != nil || timerDeadline != nil
        stopClock()
        if running { tick() }
    }

    /// Returns as soon as the actor runs it. The watchdog pings systemd only
    /// after this returns, so a host that no longer serves requests or
    /// commits edits stops the pings and systemd restarts todod.
    public func heartbeat() {}

    /// Blocks the actor's thread for good, as a wedged daemon would: only
    /// reachable with `todod --test-hooks` (SIGUSR2), to prove the watchdog.
    public func wedgeForTesting() {
        while true { sleep(3600) }
    }

    public func stopClock() {
        timer?.cancel()
        timer = nil
        timerDeadline = nil
    }

    private func scheduleTick(at deadline: Date) {
        if let current = timerDeadline, current <= deadline { return }
        timer?.cancel()
        timerDeadline = deadline
        // Sleep at most an hour at a time, so a suspended machine or a changed
        // wall clock delays a reminder by an hour at worst.
        let delay = min(max(0, deadline.timeIntervalSinceNow), 3600)
        timer = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(Int(delay * 1000) + 1))
            guard !Task.isCancelled else { return }
            await self?.tick()
        }
    }

    private func tick() {
        timer = nil
        timerDeadline = nil
        do {
            let outcome = try viewModel.tick()
            _ = record(outcome.changes, cause: nil)
            if let next = outcome.nextEvent { scheduleTick(at: next) }
        } catch {
            // The reminders could not be stored, so they did not fire: try again soon.
            scheduleTick(at: Date().addingTimeInterval(60))
        }
    }
}
