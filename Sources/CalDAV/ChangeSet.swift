/// What changed in the collection since a sync token, from one
/// sync-collection report (RFC 6578). Keys are paths as `HrefPath` spells
/// them, the same spelling `listing()` and `fetch(_:)` use.
public struct ChangeSet: Sendable, Equatable {
    /// Members added or changed, with their new ETag. The ETag is "" when the
    /// server did not send one; `fetch(_:)` returns the real one with the data.
    public let changed: [String: String]
    /// Members deleted (the server reported them 404).
    public let removed: [String]
    /// The token to pass next time.
    public let newToken: String

    public init(changed: [String: String], removed: [String], newToken: String) {
        self.changed = changed
        self.removed = removed
        self.newToken = newToken
    }
}
