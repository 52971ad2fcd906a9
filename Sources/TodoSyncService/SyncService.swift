import CalDAV
import Foundation
import Logging
import SystemdSupport
import TodoClient
import TodoProtocol
import TodoSync

/// The sync as a service: follows todod's list and the server, and syncs
/// whenever either changes.
///
/// A change in the list (any `view.changed`) is sent within a moment: its
/// round writes what changed and reads nothing else. The server is polled
/// every `interval` (and at once on SIGUSR1, `todoctl sync now`). A round
/// that fails is tried again, sooner at first, and says why in `sync
/// status` and the journal; the list itself never waits on the server.
public actor SyncService {
    private let paths: SyncPaths
    private let settings: SyncSettings
    private let state: SyncStateStore
    private let client: CalDAVClient
    private let logger: Logger
    private let notifier = ServiceNotifier()
    private var collection: CollectionInfo?
    private var failures = 0

    public init(paths: SyncPaths, settings: SyncSettings, password: String, logger: Logger) throws {
        self.paths = paths
        self.settings = settings
        self.logger = logger
        state = try SyncStateStore(path: paths.stateFile)
        let account = try CalDAVAccount(collectionURL: settings.collectionURL, user: settings.user, password: password, caFile: settings.caFile)
        client = try CalDAVClient(account: account)
    }

    /// Runs until cancelled: connects to todod (again and again, should it
    /// stop), and syncs on each of `triggers`' requests, polling the server
    /// every `interval` besides.
    public func run(triggers: SyncTriggers) async {
        notifier.ready(status: "syncing with \(settings.collectionURL)")
        let interval = settings.interval
        let poller = Task {
            while !Task.isCancelled {
                triggers.request(.poll)
                try? await Task.sleep(for: .seconds(interval))
            }
        }
        defer { poller.cancel() }
        let logger = self.logger
        try? await DaemonFollower(socketPath: paths.socketPath, retryInterval: .seconds(2)).run(
            isTodoGone: { _ in true },
            onEvent: { event in
                switch event {
                case .lost(let error): logger.warning("todod is not answering (\(error.map { "\($0)" } ?? "it stopped")); trying again every 2 s")
                case .refused(let refusal): logger.warning("todod will not start (\(refusal.message)); trying again every 2 s")
                case .reached: logger.notice("todod reached again")
                }
            },
            session: { daemon in try await self.follow(daemon, triggers: triggers) })
    }

    /// Why the last round failed, as thrown: `syncOnce` throws it on, so
    /// that `sync add` and `sync now` exit as the failure was.
    private var lastFailure: (any Error)?

    /// How a person mends a password the server refuses.
    public static let newPasswordAdvice = "store the new password with: todoctl sync password (it asks, or reads --password-file FILE)"

    /// A failure as `sync status`, the journal and the commands word it: a
    /// refused password also says how to store the right one.
    public static func describe(_ error: any Error) -> String {
        if case CalDAVError.unauthorized = error { return "\(error); " + newPasswordAdvice }
        return String(describing: error)
    }

    /// What kind of failure it was, for scripts (`sync status --json`'s
    /// `errorKind`, and the exit code of `sync now`).
    public static func kind(of error: any Error) -> SyncStatus.ErrorKind {
        switch error {
        case let error as CalDAVError:
            switch error {
            case .connection, .serverError: .unreachable
            case .malformedResponse, .responseTooLarge, .invalidHref: .failed
            default: .refused
            }
        case let error as ClientError where error.endsTheConnection: .unreachable
        case is DeletionBound: .held
        default: .failed
        }
    }

    /// While connected: a round whenever something was requested. Every
    /// row of the whole list is watched (and its counts), so any edit, not
    /// only an added or deleted item, sends an event and a round.
    private func follow(_ daemon: TodoConnection, triggers: SyncTriggers) async throws {
        let list = LocalList(daemon: daemon)
        _ = try await daemon.call(
            SubscribeListView.self,
            SubscribeListView.Params(own: true, filter: .all, properties: ["rows", "totalCount", "completedCount"], flat: true))
        let watcher = Task {
            for await message in daemon.notifications {
                if case .notification(let method, _) = message, method == ListViewChanged.name { triggers.request(.list) }
            }
            triggers.request(.list)  // the connection ended: the loop finds out
        }
        defer { watcher.cancel() }
        triggers.request(.poll)
        for await _ in triggers.wakes {
            guard let wanted = triggers.take() else { continue }
            let succeeded = try await sync(list, pollServer: wanted.poll)
            if !succeeded {
                // Sooner at first: 5 s, 10 s, 20 s … up to the interval.
                let delay = min(5 * (1 << min(failures - 1, 6)), settings.interval)
                Task {
                    try? await Task.sleep(for: .seconds(delay))
                    triggers.request(.poll)
                }
            }
            if Task.isCancelled { return }
        }
    }

    /// Rounds until one leaves nothing to do (at most a few: each is one
    /// step further), recording how it went.
    @discardableResult
    func sync(_ list: LocalList, pollServer: Bool) async throws -> Bool {
        let attempt = Self.preciseStamp.format(Date())
        try state.setMeta(["lastAttempt": attempt])
        defer { try? state.setMeta(["roundEnded": attempt]) }
        do {
            guard try await list.holdsLease() else {
                // Another instance of this shared list syncs it; this one
                // takes over when that one stops (it asks every round).
                try state.setMeta(["standby": "true", "error": nil])
                notifier.status("another instance of this shared list syncs it")
                return true
            }
            try state.setMeta(["standby": nil])
            let startedAt = try await forgetAnotherPairsBase(list)
            if collection == nil || pollServer && failures > 0 { collection = try await client.probe() }
            guard let collection else { return false }
            var poll = pollServer
            // Taken as it is read: it lets this one sync go ahead, and no other.
            let allowDeletions = try state.meta()["allowDeletions"] == "true"
            if allowDeletions { try state.setMeta(["allowDeletions": nil]) }
            var refused: [String] = []
            for _ in 0..<4 {
                var round = SyncRound(
                    client: client, state: state, list: list, collection: collection, logger: logger, timeZone: .current,
                    localName: "todod")
                round.allowDeletions = allowDeletions
                let report = try await round.run(pollServer: poll)
                try recordHistory(epoch: startedAt.epoch, revision: max(startedAt.revision, report.revision))
                if report.pulled + report.pushed + report.deletedHere + report.deletedThere > 0 {
                    logger.info(
                        "synced: \(report.pulled) in, \(report.pushed) out, \(report.deletedHere) deleted here, \(report.deletedThere) deleted there, \(report.conflicts.count) conflicts"
                    )
                }
                for conflict in report.conflicts { logger.notice("\(conflict.note) (UID \(conflict.uid))") }
                refused = report.refusedWrites
                guard report.again else { break }
                poll = true
            }
            if !refused.isEmpty {
                // Each round read the server and wrote again, and the server
                // refused again: said, and tried later, not looped on.
                throw SyncFailure(
                    "the server refused the writes to \(refused.sorted().joined(separator: ", ")) in every round (412 Precondition Failed): "
                        + "it holds another version than the one it lists; trying again later")
            }
            failures = 0
            lastFailure = nil
            try state.setMeta([
                "lastSync": Self.stamp.format(Date()), "error": nil, "errorKind": nil, "pending": "0",
            ])
            notifier.status("synced \(Self.clock(Date())) with \(settings.collectionURL)")
            return true
        } catch let error as ClientError where error.endsTheConnection {
            throw error  // todod went away: reconnect
        } catch {
            failures += 1
            lastFailure = error
            let message = Self.describe(error)
            let waiting = try? await pending(list)
            try? state.setMeta(["error": message, "errorKind": Self.kind(of: error).rawValue, "pending": waiting.map { String($0) }])
            logger.error("sync failed: \(message)")
            notifier.status("not synced: \(message)")
            return false
        }
    }

    /// The agreed versions are a base for this collection and this list
    /// only, as it was: taken for another pair, or for the list gone back
    /// to an older state, every to-do the list does not hold would look
    /// deleted here, and be deleted there (a list on an empty or another
    /// database wiped the collection; a list restored from a backup deleted
    /// on both sides what was made since). So when the collection or the
    /// list is not the one they were agreed with, or the list's revision is
    /// below the one last agreed at, they are forgotten: the round compares
    /// by UID, merges what both hold (a difference becomes a conflict note,
    /// never a silent choice), copies what one holds, and deletes nothing.
    /// Returns the list's revision as this round began.
    private func forgetAnotherPairsBase(_ list: LocalList) async throws -> (epoch: String, revision: Int) {
        let (identity, epoch, revision) = try await list.identity()
        let known = try state.records().count
        let verdict = SyncPlan.forgetting(
            recorded: (state.collection, state.list, try state.meta()["epoch"], state.revision), known: known,
            now: (settings.collectionURL, identity, epoch, revision))
        guard verdict.forget else { return (epoch, revision) }
        guard let reason = verdict.reason else {
            try state.reset(collection: settings.collectionURL, list: identity, notice: nil)
            return (epoch, revision)
        }
        let notice =
            reason
            + ": forgotten; the sync compared by UID and deleted nothing on either side. "
            + "To-dos deleted on one side since the last sync may come back: delete them again"
        logger.notice("\(notice)")
        try state.reset(collection: settings.collectionURL, list: identity, notice: "\(Self.stamp.format(Date())): \(notice)")
        return (epoch, revision)
    }

    /// The list's history a round's changes were agreed in: its epoch, and
    /// the revision, only ever up within one epoch.
    private func recordHistory(epoch: String, revision: Int) throws {
        let meta = try state.meta()
        guard meta["epoch"] != epoch || revision > (state.revision ?? -1) else { return }
        try state.setMeta(["epoch": epoch, "revision": String(revision)])
    }

    /// The list's changes the server does not have: items that differ from
    /// what was last agreed, and those added or deleted since.
    private func pending(_ list: LocalList) async throws -> Int {
        let local = try await list.todos()
        let records = try state.records()
        var count = local.keys.count { records[$0] == nil } + records.keys.count { local[$0] == nil }
        for (uid, record) in records {
            guard let here = local[uid], let base = try? TodoComponent(parsing: record.base) else { continue }
            if !here.saysTheSame(as: base) { count += 1 }
        }
        return count
    }

    /// Lets the next round delete more than `DeletionBound` allows unasked
    /// (`todoctl sync now --allow-deletions`): once, then the bound holds again.
    public static func allowDeletionsOnce(paths: SyncPaths) throws {
        try SyncStateStore(path: paths.stateFile).setMeta(["allowDeletions": "true"])
    }

    /// One sync now, for `todoctl sync add` and `sync now` when the service
    /// does not run. Throws what stopped it.
    public func syncOnce() async throws {
        let paths = self.paths
        try await TodoConnection.with(socketPath: paths.socketPath) { daemon in
            guard try await self.sync(LocalList(daemon: daemon), pollServer: true) else {
                throw await self.lastFailure ?? SyncFailure((try? self.state.meta()["error"]) ?? "the sync failed")
            }
        }
    }

    /// Closes the connections to the server: call it before letting go.
    public func close() async {
        try? await client.shutdown()
    }

    /// What `sync status` shows.
    public func status(running: Bool) throws -> SyncStatus {
        try Self.status(settings: settings, state: state, service: paths.instance.serviceName, running: running, pending: nil)
    }

    /// The status as the state file has it, read by another process (`todoctl sync status`).
    public static func status(paths: SyncPaths, settings: SyncSettings, running: Bool) throws -> SyncStatus {
        try status(
            settings: settings, state: try SyncStateStore(path: paths.stateFile), service: paths.instance.serviceName, running: running,
            pending: nil)
    }

    static func status(settings: SyncSettings, state: SyncStateStore, service: String, running: Bool, pending: Int?) throws -> SyncStatus {
        let meta = try state.meta()
        return SyncStatus(
            collection: settings.collectionURL, service: service, user: settings.user, lastSync: meta["lastSync"],
            lastAttempt: meta["lastAttempt"], error: meta["error"], errorKind: meta["errorKind"].flatMap(SyncStatus.ErrorKind.init(rawValue:)),
            pending: pending ?? Int(meta["pending"] ?? "") ?? 0, synced: try state.records().count,
            conflicts: try state.conflicts().map { .init(at: stamp.format($0.at), uid: $0.uid, note: $0.note) },
            unreadable: try state.problems(), running: running, roundFinished: meta["roundEnded"] == meta["lastAttempt"],
            standby: meta["standby"] == "true", notice: meta["notice"])
    }

    /// To the millisecond: `sync now` tells one round's start from the next.
    /// (A format style is a value: safe to share, unlike a formatter.)
    private static let preciseStamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    /// When a sync or a conflict was, as `sync status` shows it (`2026-12-07T14:57:26Z`).
    private static let stamp = Date.ISO8601FormatStyle()

    /// The time of day, local, for the status line: `14:57:26`.
    private static func clock(_ date: Date) -> String {
        let time = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        return [time.hour, time.minute, time.second].map { String(format: "%02d", $0 ?? 0) }.joined(separator: ":")
    }
}
