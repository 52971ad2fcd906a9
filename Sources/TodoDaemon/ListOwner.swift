import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization
import TodoModel
import TodoOwner
import TodoProtocol
import TodoSharedStore
import TodoStoreInterface
import TodoViewModels

/// The shell around the list's state machine (`OwnerState`): it runs the
/// machine's turns on one event loop of its own, hands its batches to the
/// committer, and runs its clock. It decides nothing the machine decides.
///
/// **One loop, like Redis.** Every connection is served on the owner's
/// loop too: a request is read, parsed, carried out and answered on one
/// thread, with no hop between threads (a hop each way cost more than all of
/// `server.status`'s work). Only blocking store work runs elsewhere, on the
/// writer's thread.
///
/// **Turns.** Connections hand the requests of a read burst over (`submit`);
/// the owner carries out everything that arrived together, pipelined on one
/// connection or from many, in one turn, and the committer takes the turn's
/// transactions as one batch when it is idle (group commit).
///
/// **Checked, not promised.** The state is in a box bound to the loop
/// (`NIOLoopBoundBox`): touching it anywhere else stops the daemon at once
/// instead of racing. Everything else here is `Sendable` as the compiler sees it.
public final class ListOwner: Sendable {
    public typealias Options = OwnerOptions

    /// Everything below is touched on this loop only.
    public let loop: any EventLoop
    private let group: MultiThreadedEventLoopGroup
    /// The list's state; on `loop` only.
    let state: NIOLoopBoundBox<OwnerState>
    /// The timer that fires reminders and re-words dates; on `loop` only.
    let clock: NIOLoopBoundBox<Clock>
    /// Where each connection's lines go, by connection; on `loop` only.
    let outboxes: NIOLoopBoundBox<[Int: ConnectionOutbox]>
    /// What waits for everything handed over to be stored (`persist`),
    /// called at the end of the turn that settles it; on `loop` only.
    private let settledWaiters: NIOLoopBoundBox<[@Sendable () -> Void]>
    /// Set by `shutdown()`. A task handed to the loop after it shut down is
    /// dropped (NIO logs an error) and whoever awaits it waits forever, so
    /// late callers (a status refresh due just after the stop) are told
    /// instead; checked and set under the lock, so no hand-over slips between.
    let isShutDown = Mutex(false)
    /// Requests handed over by the connections, waiting for the next turn.
    private let inbox = Mutex(Inbox())
    let committer: any Committer
    /// The store, when several instances share the list.
    let sharedStore: (any SharedListStore)?
    /// When several instances share the list: when to commit, and reading
    /// what the others committed.
    let follower: SharedListFollower?
    /// Blocking store work (SQLite's commits, the resume record), on a thread of its own.
    let writer: StoreWriter
    public let options: Options
    public let server: ServerInfo
    public let epoch: String
    let didChange: @Sendable () -> Void
    /// Told when the shared store stops or starts answering (for the journal).
    let storeReachabilityChanged: @Sendable (_ reachable: Bool) -> Void
    let syncFailed: @Sendable (any Error) -> Void
    /// Told what the operator should know (a shared list replaced under
    /// this instance), for the journal and the status line.
    let noticed: @Sendable (_ message: String, _ level: Logger.Level) -> Void
    /// Where what a shared list replaced under this instance would lose is
    /// saved (`saveAside`): the data directory.
    let asideDirectory: String

    struct Clock {
        var timer: Scheduled<Void>?
        var deadline: Date?
    }

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
        syncFailed: @escaping @Sendable (any Error) -> Void = { error in fatalError("sync failed: \(error)") },
        noticed: @escaping @Sendable (_ message: String, _ level: Logger.Level) -> Void = { _, _ in },
        asideDirectory: String = FileManager.default.temporaryDirectory.path
    ) throws {
        let shared = store as? any SharedListStore
        let loaded: LoadedList
        if let shared {
            let list = try shared.loadShared()
            loaded = LoadedList(
                snapshot: list.snapshot, resumeRecord: try store.resumeRecord(), shared: (list.epoch, list.revision),
                instance: shared.instance)
        } else {
            loaded = LoadedList(snapshot: try store.load(), resumeRecord: try store.resumeRecord())
        }
        let initial = OwnerState(loaded: loaded, clock: clock, options: options, server: server)
        epoch = initial.epoch
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let writer = StoreWriter(store: store)
        self.group = group
        self.loop = loop
        state = .makeBoxSendingValue(initial, eventLoop: loop)
        self.clock = .makeBoxSendingValue(Clock(), eventLoop: loop)
        settledWaiters = .makeBoxSendingValue([], eventLoop: loop)
        outboxes = .makeBoxSendingValue([:], eventLoop: loop)
        self.writer = writer
        sharedStore = shared
        if let shared {
            committer = SharedListCommitter(store: shared)
            follower = SharedListFollower(store: shared, loop: loop)
        } else if let local = store as? any LocalListStore {
            committer = SQLiteCommitter(writer: writer, store: local)
            follower = nil
        } else {
            preconditionFailure("a store either keeps a list of its own (LocalListStore) or shares one (SharedListStore)")
        }
        self.options = options
        self.server = server
        self.didChange = didChange
        self.storeReachabilityChanged = storeReachabilityChanged
        self.syncFailed = syncFailed
        self.noticed = noticed
        self.asideDirectory = asideDirectory
    }

    /// Runs `body` in a turn of its own and returns its result.
    public func run<T: Sendable>(_ body: @escaping @Sendable (ListOwner) -> T) async -> T {
        try! await loop.submit {
            let result = body(self)
            self.finishTurn()
            return result
        }.get()
    }

    /// Runs `body` on the state in a turn of its own.
    func turn<T: Sendable>(_ body: @escaping @Sendable (inout OwnerState) -> T) async -> T {
        try! await loop.submit {
            let result = self.state.withValue(body)
            self.finishTurn()
            return result
        }.get()
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
        if schedule { loop.execute { self.runTurn() } }
    }

    private func runTurn() {
        let (newConnections, submissions) = inbox.withLock { inbox -> ([NewConnection], [Submission]) in
            inbox.turnScheduled = false
            defer {
                inbox.connections = []
                inbox.submissions = []
            }
            return (inbox.connections, inbox.submissions)
        }
        // The lease is the store's to say, and the state's answer to a
        // request for it is what the store said now. Asked only for a turn
        // that holds such a request: it takes a lock, and the first ask
        // starts contending for the lease (a shared list's instance with
        // no todod-sync never does).
        let holdsSyncLease = sharedStore.flatMap { store in
            submissions.contains { $0.line.calls(SyncLeaseMethod.name) } ? store.holdsSyncLease() : nil
        }
        for new in newConnections { outboxes.value[new.outbox.connectionID] = new.outbox }
        state.withValue { state in
            if let holdsSyncLease { state.holdsSyncLease = holdsSyncLease }
            for new in newConnections { state.connect(new.outbox.connectionID, greeting: new.greeting) }
            for submission in submissions { state.handle(submission.line, from: submission.connection) }
        }
        finishTurn()
    }

    /// Every turn ends here: the committer takes the new transactions if it
    /// is idle, and what the turn decided is carried out: its lines go to
    /// the connections' outboxes, the clock is aimed at the next event, and
    /// the status line and the journal hear of what changed.
    func finishTurn() {
        if let follower { follower.turnEnded(self) } else { commitWaiting() }
        let actions = state.withValue { $0.endTurn() }
        if !actions.lines.isEmpty { deliver(actions.lines) }
        if let tick = actions.tick { scheduleTick(at: tick) }
        if let reachable = actions.reachabilityChanged { storeReachabilityChanged(reachable) }
        if actions.statusChanged { didChange() }
        if !settledWaiters.value.isEmpty, state.value.isSettled || state.value.failedSync != nil { resumeSettledWaiters() }
    }

    /// Hands each run of one connection's lines to its outbox at once (one
    /// lock and one wake per run); a connection that went has none.
    private func deliver(_ lines: [ConnectionLine]) {
        let outboxes = self.outboxes.value
        var start = lines.startIndex
        while start < lines.endIndex {
            let connection = lines[start].connection
            var end = start + 1
            while end < lines.endIndex, lines[end].connection == connection { end += 1 }
            outboxes[connection]?.deliver(lines[start..<end])
            start = end
        }
    }

    private func resumeSettledWaiters() {
        let waiters = settledWaiters.value
        settledWaiters.value = []
        for waiter in waiters { waiter() }
    }

    /// Hands the transactions waiting to be stored to the committer as one
    /// batch, unless a commit is under way; its outcome goes back to the
    /// state in a turn of its own, after which `then` (a shared list's
    /// follower) hears of it. What arrives meanwhile is the next batch
    /// (group commit).
    func commitWaiting(then react: @escaping @Sendable (CommitOutcome) -> Void = { _ in }) {
        let taken = state.withValue { state in state.takeBatch().map { ($0, state.publishedRevision) } }
        guard let (batch, base) = taken else { return }
        committer.commit(batch, plannedOn: base, on: loop) { outcome in
            self.state.withValue { $0.finishCommit(outcome) }
            // The disk did not confirm the data: nothing since the last good
            // sync may be acknowledged or announced.
            if case .syncFailed(let error) = outcome { self.syncFailed(error) }
            react(outcome)
            self.finishTurn()
        }
    }

    /// Starts, for a shared list, watching the other instances' commits.
    public func startWatchingStore() {
        follower?.start(self)
    }

    // MARK: Stopping

    /// Makes everything durable and keeps the resume record: called once,
    /// when the daemon stops and no client is left.
    ///
    /// A shared store that does not answer is given `sharedStorePatience`
    /// seconds: what it has not taken by then was never acknowledged (every
    /// client is gone), and is given up, so that the daemon stops well within
    /// the unit's stop timeout (30 s) rather than wait for a server that
    /// may not come back. A list of its own waits for its disk.
    public func persist() async throws {
        // Whatever is still unpublished goes to the committer like any
        // batch; the turn that settles it (or a failed sync) resumes this.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.execute {
                self.settledWaiters.value.append { continuation.resume() }
                if let server = self.sharedStore?.server {
                    self.loop.scheduleTask(in: .seconds(Int64(Self.sharedStorePatience))) {
                        guard !self.settledWaiters.value.isEmpty else { return }
                        self.state.withValue { state in
                            state.takeBack(
                                because: BatchWriteError(
                                    stored: 0, underlying: StoreUnavailable.unreachable(server: server, reason: "todod is stopping")))
                        }
                        self.resumeSettledWaiters()
                        self.finishTurn()
                    }
                }
                self.finishTurn()
            }
        }
        if let failure = await turn({ $0.failedSync }) { throw PersistError.syncFailed(failure) }
        let record = await turn { $0.resumeRecord() }
        try await writer.run { store in try store.saveResumeRecord(record) }
    }

    /// How long a stopping instance waits for a shared store to take what is left.
    static let sharedStorePatience = 10

    enum PersistError: Error {
        case syncFailed(String)
    }

    public func shutdown() {
        // No more announcements: they would go to a loop that has stopped.
        follower?.close()
        isShutDown.withLock { $0 = true }
        writer.shutdown()
        group.shutdownGracefully { _ in }
    }
}
