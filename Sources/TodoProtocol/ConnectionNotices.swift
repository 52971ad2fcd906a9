/// `server.hello`: the first line on every connection, before any reply.
public enum ServerHello: RPCNotification {
    public static let name = "server.hello"
    /// The protocol this document and `Protocol/` describe. A change that
    /// breaks clients raises the major number.
    public static let protocolVersion = "1.0"

    public struct Params: Codable, Hashable, Sendable {
        public var `protocol`: String
        public var server: String
        /// Changes whenever history is lost (a new database, a crash): a
        /// client holding a revision of another epoch must start afresh.
        public var epoch: String
        /// The number of the newest transaction.
        public var revision: Int
        /// This connection's number, as `cause.connection` names it in events.
        public var connection: Int
        public var capabilities: [String]
        public var limits: Limits

        public init(
            protocol: String = ServerHello.protocolVersion, server: String, epoch: String, revision: Int,
            connection: Int, capabilities: [String] = ServerHello.capabilities, limits: Limits
        ) {
            self.protocol = `protocol`
            self.server = server
            self.epoch = epoch
            self.revision = revision
            self.connection = connection
            self.capabilities = capabilities
            self.limits = limits
        }
    }

    public static let capabilities = ["transaction", "resume", "propertySubsets", "lagging", "describe"]

    /// The limits this daemon enforces, so a client can stay within them.
    public struct Limits: Codable, Hashable, Sendable {
        public var maxLineBytes: Int
        public var lineTimeoutSeconds: Double
        public var outboxSoftLimitBytes: Int
        public var outboxHardLimitBytes: Int
        public var stallTimeoutSeconds: Double
        public var maxConnections: Int
        public var historyRevisions: Int

        public init(
            maxLineBytes: Int, lineTimeoutSeconds: Double, outboxSoftLimitBytes: Int, outboxHardLimitBytes: Int,
            stallTimeoutSeconds: Double, maxConnections: Int, historyRevisions: Int
        ) {
            self.maxLineBytes = maxLineBytes
            self.lineTimeoutSeconds = lineTimeoutSeconds
            self.outboxSoftLimitBytes = outboxSoftLimitBytes
            self.outboxHardLimitBytes = outboxHardLimitBytes
            self.stallTimeoutSeconds = stallTimeoutSeconds
            self.maxConnections = maxConnections
            self.historyRevisions = historyRevisions
        }
    }
}

/// `connection.lagging`: the client reads more slowly than its events come.
/// Its pending events were dropped; once it has read what is queued, each of
/// its subscriptions gets one `reset` event with the current state.
public enum ConnectionLagging: RPCNotification {
    public static let name = "connection.lagging"

    public struct Params: Codable, Hashable, Sendable {
        public var pendingBytes: Int
        public var softLimitBytes: Int
        public var message: String

        public init(pendingBytes: Int, softLimitBytes: Int) {
            self.pendingBytes = pendingBytes
            self.softLimitBytes = softLimitBytes
            message =
                "This connection reads more slowly than todod sends; \(pendingBytes) bytes were waiting "
                + "(limit \(softLimitBytes)). Pending events were dropped; each subscription gets a reset once the "
                + "queue is read."
        }
    }
}

/// `connection.goodbye`: the daemon is closing this connection, and why:
/// `outboxFull` (more unread data than the hard limit) or `stalled` (nothing
/// could be written for the stall timeout). It is the last line.
public enum ConnectionGoodbye: RPCNotification {
    public static let name = "connection.goodbye"

    public struct Params: Codable, Hashable, Sendable {
        public var reason: String
        public var message: String
        public init(reason: String, message: String) {
            self.reason = reason
            self.message = message
        }
    }
}
