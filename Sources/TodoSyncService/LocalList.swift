import TodoClient
import TodoProtocol
import TodoSync

/// todod's list as the sync reads and changes it: through the protocol,
/// like any client. Reading is `todo.export` in iCalendar; changing is
/// `sync.apply`, whose events say `origin: "sync"`.
struct LocalList: Sendable {
    let daemon: TodoConnection
    init(daemon: TodoConnection, aroundApply: (@Sendable (ApplyMoment) async throws -> Void)? = nil) {
        self.daemon = daemon
        self.aroundApply = aroundApply
    }
    /// The most iCalendar text one `sync.apply` carries: well under a
    /// request line's limit, so that a week of changes goes in parts.
    static let partBytes = 256 << 10

    /// Every item, as to-dos by UID.
    func todos() async throws -> [String: TodoComponent] {
        var cursor: String?
        var text = ""
        repeat {
            let part = try await daemon.call(ExportTodos.self, ExportTodos.Params(format: .ical, cursor: cursor))
            text += part.text
            cursor = part.cursor
        } while cursor != nil
        return try ExportedTodos.parse(text)
    }

    /// What one `apply` did, as todod answered it.
    struct Applied: Sendable {
        /// What todod skipped, each with why.
        var skipped: [String] = []
        /// UIDs left out: their items changed here since they were read.
        var outdated: Set<String> = []
        /// Every item the calls named, as it exports once they were applied
        /// (read in the same transaction), by UID.
        var exported: [String: TodoComponent] = [:]
        /// The list's revision after the last call.
        var revision = 0
        /// UIDs of to-dos larger than one call may carry (`partBytes`):
        /// none that large is one todod holds; not sent.
        var tooLarge: Set<String> = []
    }

    /// Just before each `sync.apply` is sent, or just after its answer.
    enum ApplyMoment: Sendable { case before, after }

    /// Called at each `ApplyMoment`: tests make an edit there, as a person
    /// might at that moment, without racing a timer.
    let aroundApply: (@Sendable (ApplyMoment) async throws -> Void)?

    /// Applies the to-dos `todos` (added or updated by UID), completes and
    /// removes by UID: as few `sync.apply` calls as the line limit allows,
    /// each one transaction. Each call expects the to-dos it names as
    /// `expected` has them (nil: not in the list), so that an edit made
    /// here since they were read is left out, never overwritten.
    func apply(_ todos: [TodoComponent], complete: [String], remove: [String], expected: [String: TodoComponent?]) async throws -> Applied {
        var applied = Applied()
        var expected = expected
        var batch: [String] = []
        var expect: [ApplySync.Version] = []
        var completing: [String] = []
        var removing: [String] = []
        var size = 0
        func version(_ uid: String) -> ApplySync.Version? {
            guard let known = expected[uid] else { return nil }
            return ApplySync.Version(uid: uid, text: known?.text ?? "")
        }
        func send() async throws {
            let text = batch.isEmpty ? "" : "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//todod//todod-sync//EN\r\n" + batch.joined() + "END:VCALENDAR\r\n"
            try await aroundApply?(.before)
            let result = try await daemon.call(
                ApplySync.self,
                ApplySync.Params(text: text, complete: completing, remove: removing, expect: expect.isEmpty ? nil : expect))
            try await aroundApply?(.after)
            applied.skipped += result.skipped
            applied.outdated.formUnion(result.outdated)
            for version in result.exported {
                guard let todo = try? TodoComponent(parsing: version.text) else { continue }
                applied.exported[version.uid] = todo
                // A later part naming it expects it as this part left it.
                if expected[version.uid] != nil { expected[version.uid] = .some(todo) }
            }
            applied.revision = max(applied.revision, result.revision)
            (batch, expect, completing, removing, size) = ([], [], [], [], 0)
        }
        /// Adds what one entry costs a call, sending the call first when it would not fit.
        func fit(_ cost: Int) async throws {
            if size + cost > Self.partBytes, size > 0 { try await send() }
            size += cost
        }
        for todo in todos {
            let text = todo.text
            let expectation = todo.uid.flatMap(version)
            let cost = text.utf8.count + (expectation?.text.utf8.count ?? 0)
            if cost > Self.partBytes, let uid = todo.uid {
                applied.tooLarge.insert(uid)
                continue
            }
            try await fit(cost)
            batch.append(text)
            if let expectation { expect.append(expectation) }
        }
        // Completions and removals in parts too (each carries its to-do as
        // expected), after the to-dos, as many as a call holds; none of a
        // to-do that was not sent.
        for (uid, removes) in complete.map({ ($0, false) }) + remove.map({ ($0, true) }) where !applied.tooLarge.contains(uid) {
            let expectation = version(uid)
            try await fit(uid.utf8.count + 8 + (expectation?.text.utf8.count ?? 0))
            if removes { removing.append(uid) } else { completing.append(uid) }
            if let expectation = version(uid), !expect.contains(where: { $0.uid == uid }) { expect.append(expectation) }
        }
        if size > 0 || !batch.isEmpty { try await send() }
        return applied
    }

    /// The list's own identity (`server.status`'s `list`), what the agreed
    /// versions are keyed by with the collection, and its history now: the
    /// epoch (it changes when history is lost: a crash after a change, a
    /// restored backup) and the revision (a list restored from a backup of
    /// the same epoch has gone back to an older one).
    func identity() async throws -> (list: String, epoch: String, revision: Int) {
        let status = try await daemon.call(ServerStatus.self, NoParams())
        return (status.list, status.epoch, status.revision)
    }

    /// Whether this instance of the list is the one to sync it (always, but
    /// for one instance at a time of a list shared through PostgreSQL).
    func holdsLease() async throws -> Bool {
        try await daemon.call(SyncLeaseMethod.self, NoParams()).granted
    }

    func rename(_ renames: [(from: String, to: String)]) async throws {
        guard !renames.isEmpty else { return }
        _ = try await daemon.call(
            ApplySync.self, ApplySync.Params(text: "", rename: renames.map { ApplySync.Rename(from: $0.from, to: $0.to) }))
    }
}
