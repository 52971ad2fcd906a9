import Foundation

/// What the daemon keeps across a clean restart so clients can resume their
/// subscriptions: the epoch and revision it had reached and its recent change
/// history, each entry an opaque encoded blob (the daemon's wire form; the
/// store does not look inside). A crash leaves no record, and the next start
/// begins a new epoch.
public struct ResumeRecord: Hashable, Sendable {
    public var epoch: String
    public var revision: Int
    /// Entries by revision, oldest first.
    public var history: [Entry]

    public struct Entry: Hashable, Sendable {
        public var revision: Int
        public var payload: Data
        public init(revision: Int, payload: Data) {
            self.revision = revision
            self.payload = payload
        }
    }

    public init(epoch: String, revision: Int, history: [Entry]) {
        self.epoch = epoch
        self.revision = revision
        self.history = history
    }
}
