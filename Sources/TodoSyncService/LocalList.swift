import TodoClient
import TodoProtocol
import TodoSync

/// todod's list as the sync reads and changes it: through the protocol,
/// like any client. Reading is `todo.export` in iCalendar; changing is
/// `sync.apply`, whose events say `origin: "sync"`.
struct LocalList: Sendable {
    let daemon: TodoConnection
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

    /// Applies the to-dos `todos` (added or updated by UID), completes and
    /// removes by UID: as few `sync.apply` calls as the line limit allows,
    /// each one transaction. Returns what todod skipped.
    func apply(_ todos: [TodoComponent], complete: [String], remove: [String]) async throws -> [String] {
        var skipped: [String] = []
        var batch: [String] = []
        var size = 0
        func send(complete: [String] = [], remove: [String] = []) async throws {
            let text = batch.isEmpty ? "" : "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//todod//todod-sync//EN\r\n" + batch.joined() + "END:VCALENDAR\r\n"
            let result = try await daemon.call(ApplySync.self, ApplySync.Params(text: text, complete: complete, remove: remove))
            skipped += result.skipped
            batch = []
            size = 0
        }
        for todo in todos {
            let text = todo.text
            if size + text.utf8.count > Self.partBytes, !batch.isEmpty { try await send() }
            batch.append(text)
            size += text.utf8.count
        }
        if !batch.isEmpty || !complete.isEmpty || !remove.isEmpty { try await send(complete: complete, remove: remove) }
        return skipped
    }

    /// The list's own identity (`server.status`'s `list`): what the agreed
    /// versions are keyed by, with the collection.
    func identity() async throws -> String {
        try await daemon.call(ServerStatus.self, NoParams()).list
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
