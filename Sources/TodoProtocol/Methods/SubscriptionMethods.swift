import CanonicalJSON
import TodoViewState

/// `view.subscribe`: a view's state, and from then on one `view.changed`
/// notification per transaction. The state is read and the subscription
/// registered in one step, so no change can fall between them.
///
/// With `since`, a client that was subscribed before (to the same view, on
/// an earlier connection or before a restart) asks to catch up instead: if
/// the daemon still holds every change after that revision, the reply
/// replays them (`mode: "replay"`); otherwise it sends the whole state
/// (`mode: "reset"`, with the reason).
public enum SubscribeListView: RPCMethod {
    public static let name = "view.subscribe"
    public static let summary =
        "A view's state and, from then on, one view.changed per transaction; with since, the missed events instead."

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var view: String?
        public var own: Bool?
        public var filter: ListFilter?
        public var sort: ListSort?
        public var query: String?
        public var grouping: GroupingOption?
        /// A client's own view without the tree (see `ViewSelection.flat`).
        public var flat: Bool?
        /// Watch only these properties (names of TodoListProperties, and `rows`); all when absent.
        public var properties: [String]?
        /// Where the client's copy of the view stands.
        public var since: ResumePoint?

        public init(
            view: String? = nil, own: Bool? = nil, filter: ListFilter? = nil, sort: ListSort? = nil,
            query: String? = nil, grouping: GroupingOption? = nil, properties: [String]? = nil, since: ResumePoint? = nil,
            flat: Bool? = nil
        ) {
            self.flat = flat
            self.view = view
            self.own = own
            self.filter = filter
            self.sort = sort
            self.query = query
            self.grouping = grouping
            self.properties = properties
            self.since = since
        }

        public var selection: ViewSelection {
            ViewSelection(view: view, own: own, filter: filter, sort: sort, query: query, grouping: grouping, flat: flat)
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case view, own, filter, sort, query, grouping, flat, properties, since
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .view: ViewSelection.schema(of: .view)
            case .own: ViewSelection.schema(of: .own)
            case .filter: ViewSelection.schema(of: .filter)
            case .sort: ViewSelection.schema(of: .sort)
            case .query: ViewSelection.schema(of: .query)
            case .grouping: ViewSelection.schema(of: .grouping)
            case .flat: .optional(Bool.wireType.schema)
            case .properties: .optional(JSONSchema.array(JSONSchema.enumeration(PropertySelection.known)))
            case .since: .optional(ResumePoint.reference)
            }
        }
    }

    public enum Mode: String, Codable, Hashable, Sendable, CaseIterable, WireTyped {
        /// A new subscription: `state` is the whole (watched) state.
        case snapshot
        /// Resumed: apply `replay` in order to the state the client holds.
        case replay
        /// Resuming was not possible (see `reason`): `state` replaces the client's.
        case reset
    }

    public struct Result: Codable, Hashable, Sendable, KeyedSchema {
        public var subscription: Int
        public var epoch: String
        /// The revision the state (or the last replayed event) is at.
        public var revision: Int
        public var mode: Mode
        /// The watched properties and, if watched, the rows; null when replaying.
        @ExplicitNull public var state: WatchedState?
        /// The missed events, oldest first; empty unless replaying.
        public var replay: [ChangeBody]
        /// Why a resume became a reset: `epochChanged`, `historyTrimmed`,
        /// `ownView` or `futureRevision`; null otherwise.
        @ExplicitNull public var reason: String?

        public init(
            subscription: Int, epoch: String, revision: Int, mode: Mode, state: WatchedState?,
            replay: [ChangeBody] = [], reason: String? = nil
        ) {
            self.subscription = subscription
            self.epoch = epoch
            self.revision = revision
            self.mode = mode
            self.state = state
            self.replay = replay
            self.reason = reason
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case subscription, epoch, revision, mode, state, replay, reason
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .subscription, .revision: .required(Int.wireType.schema)
            case .epoch: .required(String.wireType.schema)
            case .mode: .required(Mode.wireType.schema)
            case .state: .required(JSONSchema.nullable(JSONSchema.ref("WatchedState")))
            case .replay: .required(JSONSchema.array(JSONSchema.ref("ChangeBody")))
            case .reason:
                .required(
                    JSONSchema.nullable(
                        JSONSchema.enumeration(["epochChanged", "historyTrimmed", "ownView", "futureRevision", "viewReplaced"])))
            }
        }
    }

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static var resultSchema: JSONValue { Result.objectSchema }

    public static let errors = [
        "protocol.invalidParams", "view.unknownProperty", "view.notFound", "todo.invalidQuery", "todo.invalidSort",
    ]
}

/// A point in the daemon's history: the epoch (which changes whenever
/// history is lost) and a revision in it.
public struct ResumePoint: Codable, Hashable, Sendable, KeyedSchema {
    public var epoch: String
    public var revision: Int
    public init(epoch: String, revision: Int) {
        self.epoch = epoch
        self.revision = revision
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case epoch, revision
    }

    static func schema(of key: CodingKeys) -> KeySchema {
        switch key {
        case .epoch: .required(String.wireType.schema)
        case .revision: .required(Int.wireType.schema)
        }
    }

    /// Its schema is one of the shared types, `ResumePoint`.
    static let reference = JSONSchema.ref("ResumePoint")
}

/// A subscription's state: the watched properties and the rows (null when
/// `rows` is not watched).
public struct WatchedState: Codable, Hashable, Sendable, KeyedSchema {
    public var properties: [String: JSONValue]
    @ExplicitNull public var rows: [TodoRow]?

    public init(properties: [String: JSONValue], rows: [TodoRow]?) {
        self.properties = properties
        self.rows = rows
    }

    public init(_ state: TodoListState, watching watched: PropertySelection) {
        let names = watched.names.map { Array($0) } ?? TodoListProperties.names
        properties = state.properties.values(forKeys: names)
        rows = watched.names.map { $0.contains(PropertySelection.rows) } ?? true ? state.rows : nil
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case properties, rows
    }

    static func schema(of key: CodingKeys) -> KeySchema {
        switch key {
        // Those watched, by name; a daemon of a later 1.x may have more.
        case .properties:
            .required(["type": "object", "properties": .object(ProtocolDescription.propertySchemas), "additionalProperties": true])
        case .rows: .required(JSONSchema.nullable(JSONSchema.array(JSONSchema.ref("TodoRow"))))
        }
    }

    /// The full view-model state, when every property and the rows are watched.
    public var fullState: TodoListState? {
        guard let rows, let properties = try? TodoListProperties(wireValues: properties) else { return nil }
        return TodoListState(properties: properties, rows: rows)
    }
}

/// `view.unsubscribe`: ends one of this connection's subscriptions. No event
/// for it follows the reply.
public enum UnsubscribeListView: RPCMethod {
    public static let name = "view.unsubscribe"
    public static let summary = "Ends one of this connection's subscriptions."

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var subscription: Int
        public init(subscription: Int) { self.subscription = subscription }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case subscription
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .subscription: .required(Int.wireType.schema)
            }
        }
    }

    public typealias Result = NoParams

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static let errors = ["view.unknownSubscription", "protocol.invalidParams"]
}
