import FoundationEssentials
import TodoViewState

/// One row edit on the wire: `{"op":"insert","index":2,"row":{…}}`,
/// `{"op":"remove","index":2}`, `{"op":"update","index":2,"row":{…}}`,
/// `{"op":"move","from":5,"index":2,"row":{…}}` (taken out at `from`, put
/// back at `index`), or `{"op":"reset","rows":[…]}`. Apply them in order.
public struct RowEdit: Codable, Hashable, Sendable {
    public enum Op: String, Codable, Sendable { case insert, remove, update, move, reset }
    // Alphabetical, the wire's key order: encoded as it goes, without sorting.
    public var from: Int?
    public var index: Int?
    public var op: Op
    public var row: TodoRow?
    public var rows: [TodoRow]?

    public init(_ operation: RowOperation) {
        switch operation {
        case .insert(let index, let row): (op, self.index, self.row) = (.insert, index, row)
        case .remove(let index): (op, self.index) = (.remove, index)
        case .update(let index, let row): (op, self.index, self.row) = (.update, index, row)
        case .move(let from, let to, let row): (op, self.from, self.index, self.row) = (.move, from, to, row)
        case .reset(let rows): (op, self.rows) = (.reset, rows)
        }
    }
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

/// `view.removed`: the named view a subscription watched was removed
/// (`view.remove`); the subscription has ended, and no more events come for it.
public enum ViewRemoved: RPCNotification {
    public static let name = "view.removed"

    public struct Params: Codable, Hashable, Sendable {
        public var subscription: Int
        public var view: String
        public var message: String
        public init(subscription: Int, view: String, message: String) {
            self.subscription = subscription
            self.view = view
            self.message = message
        }
    }
}
