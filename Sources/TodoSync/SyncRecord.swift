/// One to-do both sides know: what the sync keeps of it between rounds
/// (`SyncStateStore` keeps it on disk), the base of every merge.
public struct SyncRecord: Sendable, Equatable {
    public var uid: String
    /// The resource's path on the server.
    public var href: String
    /// The ETag last seen; nil when a write gave none (it is fetched again).
    public var etag: String?
    /// The `VTODO` as both sides last had it, as todod exports it.
    public var base: String
    /// The resource as the server last had it (its time zones and
    /// changed occurrences are written back around the to-do).
    public var resource: String

    public init(uid: String, href: String, etag: String?, base: String, resource: String) {
        self.uid = uid
        self.href = href
        self.etag = etag
        self.base = base
        self.resource = resource
    }
}
