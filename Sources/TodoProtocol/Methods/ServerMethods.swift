import CanonicalJSON
import TodoViewState

/// `rpc.describe`: the protocol described by itself: every method with its
/// parameter and result schemas, every notification, every view-model type
/// with its properties, every error. The answer is the JSON Schema document
/// `Protocol/schema/todod.schema.json`, byte for byte in content.
public enum DescribeProtocol: RPCMethod {
    public static let name = "rpc.describe"
    public static let summary = "The protocol described as one JSON Schema document, Protocol/schema/todod.schema.json."
    public typealias Params = NoParams
    public typealias Result = JSONValue
    public static var resultSchema: JSONValue { ["type": "object"] }
    public static let errors: [String] = []
}

/// `server.status`: what the daemon is doing, for people and monitoring.
public enum ServerStatus: RPCMethod {
    public static let name = "server.status"
    public static let summary = "What the daemon is doing."
    public typealias Params = NoParams

    /// Its properties are declared in key order, as the wire has them, so
    /// they are encoded without sorting (see `CanonicalJSONEncoder`).
    public struct Result: Codable, Hashable, Sendable, KeyedSchema {
        public var connections: Int
        public var dataFile: String
        public var epoch: String
        /// This instance's name when the list is shared; null otherwise.
        @ExplicitNull public var instance: String?
        public var items: Int
        /// The list's own identity (a UUID), kept for the life of its
        /// database: a new or another database has another one, a backup
        /// restored has the same. A client that keeps state about the list
        /// (the sync's agreed versions) keys it by this, so that it never
        /// takes one list's state for another's.
        public var list: String
        /// What the operator should know about the list, a sentence each: a
        /// shared list replaced under this instance (and where what it held
        /// was saved), a list of this machine's own left behind when it
        /// moved to a shared store. Empty when all is well.
        public var notices: [String]
        public var `protocol`: String
        public var revision: Int
        public var server: String
        /// The store did not answer when last asked: edits are refused
        /// (`store.unavailable`) and reads may be behind other instances.
        public var stale: Bool
        /// `sqlite` or `postgres`.
        public var store: String
        public var subscriptions: Int
        public var uptimeSeconds: Int

        public init(
            server: String, protocol: String, epoch: String, revision: Int, items: Int, connections: Int,
            subscriptions: Int, uptimeSeconds: Int, dataFile: String, list: String, store: String = "sqlite", instance: String? = nil,
            stale: Bool = false, notices: [String] = []
        ) {
            self.list = list
            self.notices = notices
            self.store = store
            self.instance = instance
            self.stale = stale
            self.server = server
            self.protocol = `protocol`
            self.epoch = epoch
            self.revision = revision
            self.items = items
            self.connections = connections
            self.subscriptions = subscriptions
            self.uptimeSeconds = uptimeSeconds
            self.dataFile = dataFile
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case connections, dataFile, epoch, instance, items, list, notices, `protocol`, revision, server, stale, store, subscriptions, uptimeSeconds
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .connections, .items, .revision, .subscriptions, .uptimeSeconds: .required(Int.wireType.schema)
            case .dataFile, .epoch, .list, .`protocol`, .server: .required(String.wireType.schema)
            case .instance: .required(String?.wireType.schema)
            case .stale: .required(Bool.wireType.schema)
            case .notices: .required([String].wireType.schema)
            case .store: .required(["enum": ["sqlite", "postgres"]])
            }
        }
    }

    public static var resultSchema: JSONValue { Result.objectSchema }
    public static let errors: [String] = []
}
