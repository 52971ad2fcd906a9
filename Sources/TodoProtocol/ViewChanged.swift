import CanonicalJSON
import FoundationEssentials
import TodoViewState

/// `view.changed`: one transaction's effect on one subscription.
///
/// Every transaction (a command, a transaction of commands, a shared view's
/// new options, a reminder or date change) advances the daemon's revision by
/// one and sends each subscription exactly one event carrying that revision,
/// so a subscription's revisions are gap-free. An event whose `properties`
/// and `rows` are empty says the transaction changed nothing the subscription
/// watches. `reset: true` marks an event that replaces the subscriber's state
/// (its rows edit is one `reset`, its properties are all the watched ones):
/// sent after the connection lagged, and the one case where revisions jump.
public enum ListViewChanged: RPCNotification {
    public static let name = "view.changed"

    public struct Params: Codable, Hashable, Sendable {
        public var subscription: Int
        public var body: ChangeBody

        public init(subscription: Int, body: ChangeBody) {
            self.subscription = subscription
            self.body = body
        }

        public var revision: Int { body.revision }

        enum CodingKeys: String, CodingKey { case subscription }

        public init(from decoder: any Decoder) throws {
            subscription = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .subscription)
            body = try ChangeBody(from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(subscription, forKey: .subscription)
            try body.encode(to: encoder)
        }
    }

    /// The line for `subscription`, from a body encoded once for every
    /// subscriber that gets the same body: the subscription id is spliced in
    /// front, so a change fanned out to a thousand subscribers is encoded once.
    ///
    /// Built as bytes and made `Data` once: each `Data.append` costs about
    /// 800 instructions (a string's UTF-8 view or a slice of itself byte by
    /// byte, more), and this line is made for every subscriber of an event.
    public static func line(subscription: Int, encodedBody: Data) -> Data {
        var line: [UInt8] = []
        line.reserveCapacity(encodedBody.count + 80)
        line.append(contentsOf: linePrefix)
        line.append(contentsOf: String(subscription).utf8)
        if encodedBody.count > 2 { line.append(UInt8(ascii: ",")) }
        encodedBody.withUnsafeBytes { body in
            line.append(contentsOf: body.dropFirst())  // the body's "{" is already written
        }
        line.append(contentsOf: lineEnd)
        return Data(line)
    }

    private static let linePrefix = Array(#"{"jsonrpc":"2.0","method":"view.changed","params":{"subscription":"#.utf8)
    private static let lineEnd = Array("}\n".utf8)
}

/// What a transaction did to one view, as a subscriber sees it: the revision,
/// the watched properties that changed (with their new values; a value that
/// became null is present as null), the row edits, and the cause.
///
/// Declared in alphabetical order, the wire's key order, so a body is encoded
/// as it goes without sorting.
public struct ChangeBody: Codable, Hashable, Sendable {
    /// Which connection and request made the change; null for the daemon's
    /// own changes (reminders, a new day).
    @ExplicitNull public var cause: Cause?
    public var properties: [String: JSONValue]
    /// This event replaces the subscriber's state instead of changing it.
    public var reset: Bool
    public var revision: Int
    public var rows: [RowEdit]

    public init(revision: Int, properties: [String: JSONValue], rows: [RowEdit], cause: Cause?, reset: Bool = false) {
        self.revision = revision
        self.properties = properties
        self.rows = rows
        self.cause = cause
        self.reset = reset
    }

    /// The wire form of a view-model change set.
    public init(revision: Int, change: TodoListChange, cause: Cause?) {
        self.init(
            revision: revision,
            properties: change.properties.values(forKeys: change.changedKeys),
            rows: change.rowOperations.map(RowEdit.init), cause: cause)
    }

    /// A whole state as one event that replaces the subscriber's.
    public init(revision: Int, state: TodoListState, cause: Cause?) {
        self.init(
            revision: revision,
            properties: state.properties.values(forKeys: TodoListProperties.names),
            rows: [RowEdit(.reset(rows: state.rows))], cause: cause, reset: true)
    }

    /// The same event for a subscriber that watches only `watched` (property
    /// names, and `rows` for the rows).
    public func restricted(to watched: PropertySelection) -> ChangeBody {
        guard let names = watched.names else { return self }
        var copy = self
        copy.properties = properties.filter { names.contains($0.key) }
        if !names.contains(PropertySelection.rows) { copy.rows = [] }
        return copy
    }

    /// Applies this event to a state, as a client does.
    public func apply(to state: inout TodoListState) throws {
        try state.properties.apply(properties)
        for edit in rows {
            switch edit.op {
            case .insert: state.rows.insert(edit.row!, at: edit.index!)
            case .remove: state.rows.remove(at: edit.index!)
            case .update: state.rows[edit.index!] = edit.row!
            case .move:
                state.rows.remove(at: edit.from!)
                state.rows.insert(edit.row!, at: edit.index!)
            case .reset: state.rows = edit.rows ?? []
            }
        }
    }
}

/// Who made a change: the connection (as numbered in its greeting) and the
/// id of the request, so a client can tell its own changes from others'.
///
/// When several instances share a list, `instance` names the one the
/// connection is on (connection numbers are each instance's own); it is
/// absent for a list of one instance.
public struct Cause: Codable, Hashable, Sendable {
    public var connection: Int
    @ExplicitNull public var request: RequestID?
    public var instance: String?
    /// What made the change besides the connection, present only when
    /// something did: `"sync"` for what a calendar server changed
    /// (`sync.apply`), so that a view can say so.
    public var origin: String?

    public init(connection: Int, request: RequestID?, instance: String? = nil, origin: String? = nil) {
        self.connection = connection
        self.request = request
        self.instance = instance
        self.origin = origin
    }

    private enum CodingKeys: String, CodingKey {
        case connection, request, instance, origin
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        connection = try container.decode(Int.self, forKey: .connection)
        _request = try container.decode(ExplicitNull<RequestID>.self, forKey: .request)
        instance = try container.decodeIfPresent(String.self, forKey: .instance)
        origin = try container.decodeIfPresent(String.self, forKey: .origin)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(connection, forKey: .connection)
        try container.encode(_request, forKey: .request)
        try container.encodeIfPresent(instance, forKey: .instance)
        try container.encodeIfPresent(origin, forKey: .origin)
    }
}

/// Which of a view model's properties a subscription watches: all (nil), or
/// the named ones; the rows count as the property `rows`.
public struct PropertySelection: Hashable, Sendable {
    public static let rows = "rows"
    public static let all = PropertySelection(names: nil)
    public var names: Set<String>?

    public init(names: Set<String>?) { self.names = names }

    /// Every name a subscription may ask for.
    public static var known: [String] { TodoListProperties.names + [rows] }
}
