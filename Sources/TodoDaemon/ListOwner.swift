import Foundation
import NIOCore
import NIOPosix
import Synchronization
import TodoModel
import TodoProtocol
import TodoStorage
import TodoViewModels

/// The one owner of the list's state: every request, subscription and clock
/// tick is carried out here, one turn at a time, on one event loop of its own.
///
/// **One loop, like Redis.** Every connection is served on the owner's
/// loop too: a request is read, parsed, carried out and answered on one
/// thread, with no hop between threads (a hop each way cost more than all of
/// `server.status`'s work). Only blocking store work runs elsewhere, on the
/// writer's thread. (An undo step read back from the store is decoded here,
/// when it is first undone: a few milliseconds for a step of 1,000 items,
/// once, against decoding every step at start.)
///
/// **Turns.** Connections hand the requests of a read burst over (`submit`);
/// the owner carries out everything that arrived together — pipelined on one
/// connection or from many — in one turn, and hands the writes of the turn
/// to the writer as one batch.
///
/// **Revisions.** Every transaction that changes something (a command, a
/// `transaction`, a view's new options, a tick) gets the next revision number
/// when it is applied to memory, and is announced to every subscription as
/// one event once it is durable. The epoch names the history those numbers
/// belong to: it survives a clean restart (with the recent history) and
/// changes after a crash.
///
/// **Durable before visible.** The writer stores one batch at a time and
/// syncs once per batch. Events go out and replies are released only after
/// the sync that covers what they report, in order: a client's events
/// always come before the reply to its request, and replies keep the order of
/// requests on each connection.
///
/// **A failed write.** If a batch cannot be stored (a full disk), its failed
/// transactions and every later one are taken back in memory, newest first
/// (`TodoListViewModel.revert`), their revisions are given back (revisions
/// stay gap-free), and every reply that reported them becomes
/// `store.writeFailed`. The daemon goes on serving; memory equals the store.
/// Only a failed sync, after which the durability of earlier writes is
/// unknown, stops the daemon (`syncFailed`).
///
/// **Never waiting on clients.** Lines go into each connection's outbox,
/// which never blocks: a client that reads slowly can only hurt itself.
public final class ListOwner: @unchecked Sendable {
    public struct Options: Sendable {
        public var reminderAge: TimeInterval = 86_400
        /// Whether and when reminders belong on the desktop (todod.conf).
        public var desktop = DesktopReminderSettings()
        /// How long before its due time an item raises a "due soon" reminder; 0: never.
        public var dueSoonLead: TimeInterval = 0
        /// The declared fields: built in, and todod.conf's.
        public var fields = FieldCatalog.builtIn
        /// How many transactions the resume history holds at most.
        public var historyRevisions = 1000
        /// How many bytes of change sets (in wire form) it holds at most.
        public var historyBytes = 4 << 20
        public init() {}
    }

    /// Everything below is touched on this loop only.
    public let loop: any EventLoop
    private let group: MultiThreadedEventLoopGroup
    /// Set by `shutdown()`. A task handed to the loop after it shut down is
    /// dropped (NIO logs an error) and whoever awaits it waits forever, so
    /// late callers (a status refresh due just after the stop) are told
    /// instead; checked and set under the lock, so no hand-over slips between.
    let isShutDown = Mutex(false)
    let viewModel: TodoListViewModel
    let store: any ListStore
    /// The store when several instances share the list (PostgreSQL).
    let sharedStore: (any SharedListStore)?
    /// Shared list: the newest revision any instance announced.
    var announcedRevision = 0
    /// Shared list: the read under way (catching up, or the head lock).
    var storeRead: StoreRead?
    /// Shared list: when another instance's commit was last applied.
    var otherCommitApplied = NIODeadline.distantPast
    /// Shared list: how long to wait before reading again after a failed read.
    var catchUpPause = ListOwner.firstCatchUpPause
    /// Shared list: why the store was last out of reach (for the refusals meanwhile).
    var lastStoreProblem = "no answer"
    /// Shared list: whether the store answered the last time it was asked
    /// (systemd's status line and `server.status` say when it did not).
    var storeReachable = true {
        didSet {
            guard storeReachable != oldValue else { return }
            didChange()
            storeReachabilityChanged(storeReachable)
        }
    }
    /// Told when the shared store stops or starts answering (for the journal).
    let storeReachabilityChanged: @Sendable (_ reachable: Bool) -> Void
    /// The request being carried out, which a transaction it records is
    /// planned again for if another instance commits first.
    var currentRequest: (connection: Int, request: IncomingRequest)?
    let writer: StoreWriter
    public let options: Options
    let server: ServerInfo
    /// Changes whenever history is lost: a new database or a crash.
    public let epoch: String
    /// The newest revision applied to memory (maybe not yet durable).
    var revision: Int
    /// The newest revision that is durable and announced.
    var publishedRevision: Int
    var history: ChangeHistory
    /// Applied, not yet durable, oldest first; the first `inFlight` are with the writer.
    var unpublished: [PendingTransaction] = []
    var inFlight = 0
    let syncFailed: @Sendable (any Error) -> Void
    let didChange: @Sendable () -> Void
    /// Once a sync failed nothing more is acknowledged.
    var failedSync: (any Error)?

    var connections: [Int: ConnectionState] = [:]
    var subscriptions: [Int: Subscription] = [:]
    var nextSubscriptionID = 1
    var nextOwnViewID = 1
    /// The revision at which each named view was last created or removed
    /// (this run): a client resuming from before it gets a reset.
    var viewsReplacedAt: [String: Int] = [:]
    /// Connections with lines queued in this turn, flushed at its end.
    var touched: Set<Int> = []
    /// Connections with replies waiting for a revision to become durable.
    var waiting: Set<Int> = []

    private var timer: Scheduled<Void>?
    private var timerDeadline: Date?

    /// Requests handed over by the connections, waiting for the next turn.
    private let inbox = Mutex(Inbox())
    private struct Inbox {
        /// New connections, registered at the start of the next turn: before
        /// any line they sent, which may be handed over in the same turn (a
        /// client that does not wait for its greeting).
        var connections: [NewConnection] = []
        var submissions: [Submission] = []
        var turnScheduled = false
    }

    /// A connection to register, and how to greet it.
    struct NewConnection: Sendable {
        var outbox: ConnectionOutbox
        var greeting: @Sendable (_ epoch: String, _ revision: Int) -> Data
    }

    /// One line's requests from one connection.
    struct Submission: Sendable {
        var connection: Int
        var line: IncomingLine
    }

    struct PendingTransaction {
        var revision: Int
        var changes: [ViewID: TodoListChange]
        var cause: Cause?
        var write: ListWrite?
        var applied: AppliedChange?
        var isTick = false
        /// A named view this transaction removes: its subscriptions end when
        /// the transaction is published, not before (it may yet fail).
        var removedView: String? = nil
        /// The request that made it (shared list: planned again on a conflict).
        var request: (connection: Int, request: IncomingRequest)? = nil
    }

    struct Subscription {
        let id: Int
        let connection: Int
        let view: ViewID
        let watched: PropertySelection
        /// Events up to this revision are already in the state the subscriber holds.
        var seen: Int
    }

    /// Loads the list from `store`, and the resume record a clean shutdown
    /// left (if any). `didChange` is called after every change, connection
    /// and subscription (systemd's status line counts them); `syncFailed`
    /// when the disk refuses a sync, after which nothing more can be
    /// acknowledged.
    public init(
        store: any ListStore,
        clock: TodoClock = TodoClock(),
        options: Options = Options(),
        server: ServerInfo = ServerInfo(version: "todod", dataFile: ""),
        didChange: @escaping @Sendable () -> Void = {},
        storeReachabilityChanged: @escaping @Sendable (_ reachable: Bool) -> Void = { _ in },
        syncFailed: @escaping @Sendable (any Error) -> Void = { error in fatalError("sync failed: \(error)") }
    ) throws {
        let shared = store as? any SharedListStore
        let loaded = try shared?.loadShared()
        viewModel = TodoListViewModel(
            snapshot: try loaded?.snapshot ?? store.load(), clock: clock, reminderAge: options.reminderAge,
            desktop: options.desktop, dueSoonLead: options.dueSoonLead, fields: options.fields)
        viewModel.origin = shared?.instance
        self.store = store
        sharedStore = shared
        self.options = options
        self.server = server
        if let loaded {
            // A shared list's revisions are the store's, the same on every
            // instance, and so is the epoch: a client resumes on any of them.
            epoch = loaded.epoch
            revision = loaded.revision
            if let record = try store.resumeRecord(), record.epoch == loaded.epoch, record.revision == loaded.revision {
                // Nothing was committed since this instance stopped: its history is exact.
                history = ChangeHistory(record: record, revisionLimit: options.historyRevisions, byteLimit: options.historyBytes)
            } else {
                history = ChangeHistory(
                    revisionLimit: options.historyRevisions, byteLimit: options.historyBytes, floor: loaded.revision)
            }
        } else if let record = try store.resumeRecord() {
            epoch = record.epoch
            revision = record.revision
            history = ChangeHistory(record: record, revisionLimit: options.historyRevisions, byteLimit: options.historyBytes)
        } else {
            epoch = UUID().uuidString.lowercased()
            revision = 0
            history = ChangeHistory(revisionLimit: options.historyRevisions, byteLimit: options.historyBytes, floor: 0)
        }
        publishedRevision = revision
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loop = group.next()
        writer = StoreWriter(store: store)
        self.didChange = didChange
        self.storeReachabilityChanged = storeReachabilityChanged
        self.syncFailed = syncFailed
    }

    /// Runs `body` in a turn of its own and returns its result.
    public func run<T: Sendable>(_ body: @escaping @Sendable (ListOwner) throws -> T) async throws -> T {
        try await loop.submit { try body(self) }.get()
    }

    public func run<T: Sendable>(_ body: @escaping @Sendable (ListOwner) -> T) async -> T {
        try! await loop.submit { body(self) }.get()
    }

    // MARK: Turns

    /// Hands over the requests of one line; they are carried out in the next
    /// turn, with everything else that arrived by then.
    func submit(_ submissions: [Submission]) {
        guard !submissions.isEmpty else { return }
        addToInbox { $0.submissions.append(contentsOf: submissions) }
    }

    /// Hands over a new connection; it is registered and greeted at the
    /// start of the next turn, before the lines of that turn are read.
    func submit(_ connection: NewConnection) {
        addToInbox { $0.connections.append(connection) }
    }

    /// Changes the inbox and schedules a turn, unless one is scheduled already.
    private func addToInbox(_ change: (inout Inbox) -> Void) {
        let schedule = inbox.withLock { inbox -> Bool in
            change(&inbox)
            defer { inbox.turnScheduled = true }
            return !inbox.turnScheduled
        }
        if schedule { loop.execute { self.turn() } }
    }

    private func turn() {
        let (newConnections, submissions) = inbox.withLock { inbox -> ([NewConnection], [Submission]) in
            inbox.turnScheduled = false
            defer {
                inbox.connections = []
                inbox.submissions = []
            }
            return (inbox.connections, inbox.submissions)
        }
        for new in newConnections { register(new) }
        for submission in submissions {
            guard let connection = connections[submission.connection] else { continue }
            handle(submission.line, from: connection)
        }
        finishTurn()
    }

    /// Every turn ends here: the new writes go to the writer if it is idle,
    /// ready replies are released, and every touched connection is woken once.
    func finishTurn() {
        startWriteIfIdle()
        releaseReplies()
    }

    // MARK: Transactions

    /// Numbers a transaction applied to memory and queues it for the writer.
    /// Returns the revision a reply about it must wait for.
    func record(
        _ changes: [ViewID: TodoListChange], write: ListWrite?, applied: AppliedChange?, cause: Cause?, isTick: Bool = false,
        removedView: String? = nil
    ) -> Int {
        guard !changes.isEmpty || write != nil else { return revision }
        revision += 1
        unpublished.append(
            PendingTransaction(
                revision: revision, changes: changes, cause: cause, write: write, applied: applied, isTick: isTick,
                removedView: removedView, request: currentRequest))
        didChange()
        return revision
    }

    private func startWriteIfIdle() {
        guard inFlight == 0, failedSync == nil, !unpublished.isEmpty else { return }
        if let sharedStore {
            commitShared(to: sharedStore)
            return
        }
        inFlight = unpublished.count
        let batch = unpublished.compactMap(\.write)
        writer.write(batch, on: loop) { outcome in self.finishWrite(outcome) }
    }

    private func finishWrite(_ outcome: StoreWriter.Outcome) {
        let written = unpublished.prefix(inFlight)
        inFlight = 0
        switch outcome {
        case .syncFailed(let error):
            // The disk did not confirm the data: nothing since the last good
            // sync may be acknowledged or announced.
            failedSync = error
            syncFailed(error)
        case .written(let stored, let failure):
            // The transactions before the first failed write are durable.
            var writes = 0
            var durable = 0
            for transaction in written {
                if transaction.write != nil {
                    if writes == stored { break }
                    writes += 1
                }
                durable += 1
            }
            for transaction in unpublished.prefix(durable) {
                publish(transaction)
                publishedRevision = transaction.revision
            }
            unpublished.removeFirst(durable)
            if let failure { takeBack(because: failure) }
        }
        finishTurn()
    }

    /// Reverts every transaction not yet durable, newest first, and answers
    /// whatever reported them with `store.writeFailed`.
    func takeBack(because failure: BatchWriteError) {
        let error =
            failure.underlying is StoreUnavailable
            ? RPCError.storeUnavailable(String(describing: failure.underlying))
            : RPCError.storageFailure(String(describing: failure))
        var retryTick = false
        for transaction in unpublished.reversed() {
            if let applied = transaction.applied { viewModel.revert(applied) }
            retryTick = retryTick || transaction.isTick
        }
        unpublished = []
        revision = publishedRevision
        failReplies(after: publishedRevision, with: error)
        resetSubscribersAhead()
        if retryTick { scheduleTick(at: Date().addingTimeInterval(60)) }
        didChange()
    }

    /// Makes everything durable and keeps the resume record: called once,
    /// when the daemon stops and no client is left.
    public func persist() async throws {
        // Whatever is still unpublished goes through the writer like any batch.
        while await run({ $0.unpublished.isEmpty && $0.inFlight == 0 }) == false {
            try await Task.sleep(for: .milliseconds(5))
            if let failure = await run({ $0.failedSync.map { String(describing: $0) } }) {
                throw PersistError.syncFailed(failure)
            }
        }
        let record = await run { $0.history.record(epoch: $0.epoch, revision: $0.publishedRevision) }
        try await writer.run { store in try store.saveResumeRecord(record) }
    }

    enum PersistError: Error {
        case syncFailed(String)
    }

    // MARK: Time

    /// Starts the timer that fires reminders and re-words dates.
    public func startClock() {
        loop.execute {
            self.tick()
            self.finishTurn()
        }
    }

    public func stopClock() {
        loop.execute {
            self.timer?.cancel()
            self.timer = nil
            self.timerDeadline = nil
        }
    }

    /// Applies a new reminder age (a reloaded configuration): reminders the
    /// new age makes due fire now, and the timer aims at the new next one.
    public func changeReminderAge(to age: TimeInterval) async {
        await run { owner in
            guard age != owner.viewModel.reminderAge else { return }
            owner.viewModel.changeReminderAge(to: age)
            let running = owner.timerDeadline != nil
            owner.timer?.cancel()
            owner.timer = nil
            owner.timerDeadline = nil
            if running {
                owner.tick()
                owner.finishTurn()
            }
        }
    }

    /// Applies reloaded desktop settings: every view's `desktopReminders`
    /// follows at once, and the timer aims at the new next event (a longer
    /// lead may fire "due soon" reminders now).
    public func changeDesktopSettings(_ settings: DesktopReminderSettings, dueSoonLead: TimeInterval) async {
        await run { owner in
            guard settings != owner.viewModel.desktopSettings || dueSoonLead != owner.viewModel.dueSoonLead else { return }
            let outcome = owner.viewModel.changeDesktopSettings(settings, dueSoonLead: dueSoonLead)
            _ = owner.record(outcome.changes, write: nil, applied: nil, cause: nil)
            if owner.timerDeadline != nil {
                owner.timer?.cancel()
                owner.timer = nil
                owner.timerDeadline = nil
                owner.tick()
            }
            owner.finishTurn()
        }
    }

    /// Returns as soon as the owner's loop runs it. The watchdog pings
    /// systemd only after this returns, so an owner that no longer turns
    /// stops the pings and systemd restarts todod.
    public func heartbeat() async {
        await run { _ in }
    }

    /// Blocks the owner's thread for good, as a wedged daemon would: only
    /// reachable with `todod --test-hooks` (SIGUSR2), to prove the watchdog.
    public func wedgeForTesting() {
        loop.execute { while true { sleep(3600) } }
    }

    func scheduleTick(at deadline: Date) {
        if let current = timerDeadline, current <= deadline { return }
        timer?.cancel()
        timerDeadline = deadline
        // Sleep at most an hour at a time, so a suspended machine or a changed
        // wall clock delays a reminder by an hour at worst.
        let delay = min(max(0, deadline.timeIntervalSinceNow), 3600)
        timer = loop.scheduleTask(in: .milliseconds(Int64(delay * 1000) + 1)) {
            self.tick()
            self.finishTurn()
        }
    }

    private func tick() {
        timer = nil
        timerDeadline = nil
        let outcome = viewModel.tick()
        _ = record(outcome.changes, write: outcome.write, applied: outcome.applied, cause: nil, isTick: true)
        if let next = outcome.nextEvent { scheduleTick(at: next) }
    }

    // MARK: Counts

    public var itemCount: Int { get async { await run { $0.viewModel.itemCount } } }
    public var subscriptionCount: Int { get async { await run { $0.subscriptions.count } } }

    /// What the status line counts, read in one turn; nil once `shutdown()`
    /// has begun, when there is nothing left to count.
    public func statusCounts() async -> (items: Int, clients: Int, subscriptions: Int, stale: Bool)? {
        let counted = isShutDown.withLock { isShutDown in
            isShutDown
                ? nil
                : loop.submit { (self.viewModel.itemCount, self.connections.count, self.subscriptions.count, !self.storeReachable) }
        }
        guard let counts = try? await counted?.get() else { return nil }
        return (items: counts.0, clients: counts.1, subscriptions: counts.2, stale: counts.3)
    }

    public func shutdown() {
        // No more announcements: they would go to a loop that has stopped.
        sharedStore?.close()
        isShutDown.withLock { $0 = true }
        writer.shutdown()
        group.shutdownGracefully { _ in }
    }
}
