import Foundation
import TodoModel
import TodoProtocol
import TodoStoreInterface
import TodoViewModels

/// The list owner's state machine: revisions, pending replies,
/// subscriptions and the order of acknowledgements, as a value that does no
/// I/O. Its shell (`ListOwner` in TodoDaemon) feeds it lines, commit
/// outcomes and clock ticks, one turn at a time, and carries out what it
/// asks for; tests drive it the same way, with no socket, disk or event loop.
///
/// **What it says.** Each turn ends with the actions it decided
/// (`endTurn`, `TurnActions`): the lines for each connection (replies,
/// events, resets, the end of a connection), when the timer should next
/// fire, whether the status line changed, whether the shared store's
/// reachability changed. What to store comes out as batches
/// (`takeBatch`), whose outcome comes back in (`finishCommit`, a
/// `CommitOutcome`). The state holds no connection, lock or timer of the
/// shell's: it is a value, and a test drives it the way the shell does.
///
/// **Revisions.** Every transaction that changes something (a command, a
/// `transaction`, a view's new options, a tick) gets the next revision number
/// when it is applied to memory, and is announced to every subscription as
/// one event once it is durable. The epoch names the history those numbers
/// belong to: it survives a clean restart (with the recent history) and
/// changes after a crash.
///
/// **Durable before visible.** Events go out and replies are released only
/// after the commit that covers what they report, in order: a client's
/// events always come before the reply to its request, and replies keep the
/// order of requests on each connection.
///
/// **A failed write.** If a batch cannot be stored (a full disk), its failed
/// transactions and every later one are taken back in memory, newest first
/// (`TodoListViewModel.revert`), their revisions are given back (revisions
/// stay gap-free), and every reply that reported them becomes
/// `store.writeFailed`. Memory equals the store. Only a failed sync, after
/// which the durability of earlier writes is unknown, stops acknowledging
/// for good (`failedSync`).
public struct OwnerState {
    /// Replaced only when a shared list is reloaded whole (`reload`).
    public internal(set) var viewModel: TodoListViewModel
    public let options: OwnerOptions
    public let server: ServerInfo
    /// Changes whenever history is lost: a new database, a crash, or a
    /// shared list replaced under the instance.
    public internal(set) var epoch: String
    /// The shared store's name for this instance; nil for a list of its own.
    public let instance: String?
    /// Whether this instance holds the right to sync with a calendar server
    /// (`sync.lease`): always for a list of its own; for a shared list, as
    /// the store last said, which the shell asks before each turn's requests.
    public var holdsSyncLease = true
    let clock: TodoClock
    let now: @Sendable () -> Date

    /// The newest revision applied to memory (maybe not yet durable).
    public internal(set) var revision: Int
    /// The newest revision that is durable and announced.
    public internal(set) var publishedRevision: Int
    var history: ChangeHistory
    /// Applied, not yet durable, oldest first; the first `inFlight` are being committed.
    public internal(set) var unpublished: [PendingTransaction] = []
    public internal(set) var inFlight = 0
    /// Once a sync failed nothing more is acknowledged.
    public internal(set) var failedSync: String?

    var connections: [Int: ConnectionState] = [:]
    var subscriptions: [Int: Subscription] = [:]
    var nextSubscriptionID = 1
    var nextOwnViewID = 1
    /// The revision at which each named view was last created or removed
    /// (this run): a client resuming from before it gets a reset.
    var viewsReplacedAt: [String: Int] = [:]
    /// Connections with replies queued in this turn, released at its end.
    var touched: Set<Int> = []
    /// The lines decided in this turn, in order: what `endTurn` hands over.
    var turnLines: [ConnectionLine] = []
    /// Lagging connections that caught up, waiting for a durable state to be reset to (`resync`).
    var resyncsWaiting: Set<Int> = []
    /// Connections with replies waiting for a revision to become durable.
    var waiting: Set<Int> = []
    /// The published revision when `waiting` was last looked at: until
    /// another is published, none of their replies can go. Nil when a reply's
    /// revision was changed in place (a replan), so they are looked at again.
    var releasedRevision: Int?
    /// The request being carried out, which a transaction it records is
    /// planned again for if another instance commits first.
    var currentRequest: (connection: Int, request: IncomingRequest)?

    // MARK: What the turn hands over at its end (`endTurn`)

    /// The earliest time the clock should tick next, if asked since the shell last took it.
    var requestedTick: Date?
    /// Something the status line counts changed (items, connections, subscriptions).
    var changed = false
    /// Shared list: whether the store answered the last time it was asked.
    public var storeReachable = true {
        didSet {
            guard storeReachable != oldValue else { return }
            changed = true
            reachabilityChanged = storeReachable
        }
    }
    var reachabilityChanged: Bool?
    /// What the operator should know about the list: a shared list that was
    /// replaced under this instance, a local list left behind. In
    /// `server.status`, and so in `todoctl status` and systemd's status line.
    public internal(set) var notices: [String] = []

    /// Starts from the list `loaded` holds: a list of its own (`snapshot`
    /// with the resume record a clean shutdown left), or a shared list at
    /// the store's revision.
    public init(
        loaded: LoadedList, clock: TodoClock = TodoClock(), options: OwnerOptions = OwnerOptions(),
        server: ServerInfo = ServerInfo(version: "todod", dataFile: "")
    ) {
        viewModel = TodoListViewModel(
            snapshot: loaded.snapshot, clock: clock, reminderAge: options.reminderAge,
            desktop: options.desktop, dueSoonLead: options.dueSoonLead, fields: options.fields)
        viewModel.origin = loaded.instance
        instance = loaded.instance
        self.options = options
        self.server = server
        self.clock = clock
        now = clock.now
        let limits = (revisions: options.historyRevisions, bytes: options.historyBytes)
        if let shared = loaded.shared {
            // A shared list's revisions are the store's, the same on every
            // instance, and so is the epoch: a client resumes on any of them.
            epoch = shared.epoch
            revision = shared.revision
            if let record = loaded.resumeRecord, record.epoch == shared.epoch, record.revision == shared.revision {
                // Nothing was committed since this instance stopped: its history is exact.
                history = ChangeHistory(record: record, revisionLimit: limits.revisions, byteLimit: limits.bytes)
            } else {
                history = ChangeHistory(revisionLimit: limits.revisions, byteLimit: limits.bytes, floor: shared.revision)
            }
        } else if let record = loaded.resumeRecord {
            epoch = record.epoch
            revision = record.revision
            history = ChangeHistory(record: record, revisionLimit: limits.revisions, byteLimit: limits.bytes)
        } else {
            epoch = UUID().uuidString.lowercased()
            revision = 0
            history = ChangeHistory(revisionLimit: limits.revisions, byteLimit: limits.bytes, floor: 0)
        }
        publishedRevision = revision
    }

    /// Whether several instances share the list.
    public var isShared: Bool { instance != nil }

    // MARK: Counts

    public var itemCount: Int { viewModel.itemCount }
    public var connectionCount: Int { connections.count }
    public var subscriptionCount: Int { subscriptions.count }
    /// Whether nothing is waiting to be committed, nor being committed.
    public var isSettled: Bool { unpublished.isEmpty && inFlight == 0 }

    /// The record that lets clients resume after a restart.
    public func resumeRecord() -> ResumeRecord {
        history.record(epoch: epoch, revision: publishedRevision)
    }

    /// Asks the shell to have the clock tick at `deadline` (or earlier).
    mutating func requestTick(at deadline: Date) {
        if let current = requestedTick, current <= deadline { return }
        requestedTick = deadline
    }
}

/// The list as the store holds it when the owner starts.
public struct LoadedList {
    public var snapshot: ListSnapshot
    public var resumeRecord: ResumeRecord?
    /// A shared list's epoch and revision (the store's); nil for a list of its own.
    public var shared: (epoch: String, revision: Int)?
    /// This instance's name in a shared list.
    public var instance: String?

    public init(snapshot: ListSnapshot, resumeRecord: ResumeRecord?, shared: (epoch: String, revision: Int)? = nil, instance: String? = nil) {
        self.snapshot = snapshot
        self.resumeRecord = resumeRecord
        self.shared = shared
        self.instance = instance
    }
}
