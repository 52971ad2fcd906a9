import TodoViewModels

/// `view.changed`: the list view model changed; carries the new state and the
/// revision it has, which grows by one with every change.
public enum ListViewChanged: RPCNotification {
    public static let name = "view.changed"

    public typealias Params = ListViewRevision
}

/// `server.shutdown`: the daemon is stopping and will close the connection
/// after this line. Every reply to a request already sent comes before it.
public enum ServerShutdown: RPCNotification {
    public static let name = "server.shutdown"

    public struct Params: Codable, Hashable, Sendable {
        public var reason: String
        public init(reason: String) { self.reason = reason }
    }
}
