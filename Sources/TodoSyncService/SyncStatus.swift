import Foundation

/// What `todoctl sync status` shows: the collection, the last sync, what
/// waits to go out, conflicts kept as notes, and what went wrong.
public struct SyncStatus: Codable, Sendable {
    public var collection: String
    /// The user unit that runs this sync: `todod-sync.service` for the
    /// default socket's todod, `todod-sync@INSTANCE.service` for another.
    public var service: String
    public var user: String
    /// The last round that completed, ISO 8601; null before the first.
    public var lastSync: String?
    /// The last round tried, ISO 8601.
    public var lastAttempt: String?
    /// Why the last round failed; null when it did not.
    public var error: String?
    /// What kind of failure that was; null when none.
    public var errorKind: ErrorKind?
    /// List changes the server does not have yet (items added, edited or
    /// deleted since they were last agreed).
    public var pending: Int
    /// To-dos both know.
    public var synced: Int
    /// Conflicts kept as notes, newest last.
    public var conflicts: [Conflict]
    /// Resources on the server that cannot be read, by href: skipped, and left there.
    public var unreadable: [String: String]
    /// Whether the service is running (its process holds the lock).
    public var running: Bool
    /// Whether the round last tried has ended (`sync now` waits for it).
    public var roundFinished: Bool
    /// Whether another instance of this shared list syncs it (this one
    /// waits, and takes over when that one stops).
    public var standby: Bool
    /// When and why the sync last forgot what was agreed (the list went
    /// back to an older revision, or is another list): null when it never did.
    public var notice: String?

    /// Whether trying again may help: the server (or todod) could not be
    /// reached, or it said no (a wrong password, not a calendar), or
    /// something else failed.
    public enum ErrorKind: String, Codable, Sendable {
        case unreachable, refused, failed
        /// The round would have deleted more than a round may unasked
        /// (`DeletionBound`): `todoctl sync now --allow-deletions` goes ahead.
        case held
    }

    public struct Conflict: Codable, Sendable {
        public var at: String
        public var uid: String
        public var note: String
    }

    /// For people.
    public var text: String {
        var lines = ["collection: \(collection) (user \(user))"]
        lines.append("service: " + (running ? "running" : "not running (systemctl --user enable --now \(service))"))
        if standby { lines.append("standby: another instance of this shared list syncs it; this one takes over if it stops") }
        lines.append("last sync: " + (lastSync ?? "never"))
        if let notice { lines.append("notice: \(notice)") }
        if let error { lines.append("error: \(error) (last tried \(lastAttempt ?? "never"))") }
        lines.append("pending: \(pending) \(pending == 1 ? "change" : "changes") to send; \(synced) to-dos synced")
        lines.append("conflicts: \(conflicts.count)")
        for conflict in conflicts.suffix(10) { lines.append("  \(conflict.at) \(conflict.note) (UID \(conflict.uid))") }
        for (href, problem) in unreadable.sorted(by: { $0.key < $1.key }) { lines.append("unreadable on the server: \(href): \(problem)") }
        return lines.joined(separator: "\n")
    }
}
