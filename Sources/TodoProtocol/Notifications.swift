import Foundation
import TodoViewModels

/// `view.changed`: a subscribed view changed. Carries the subscription's next
/// revision (one more than the last it saw), the properties that changed with
/// their new values, and the row edits, in order.
public enum ListViewChanged: RPCNotification {
    public static let name = "view.changed"

    public struct Params: Codable, Hashable, Sendable {
        public var subscription: Int
        public var revision: Int
        /// Only the properties that changed (a property that became null is present as null).
        public var properties: [String: JSONValue]
        public var rows: [RowEdit]

        public init(subscription: Int, revision: Int, properties: [String: JSONValue], rows: [RowEdit]) {
            self.subscription = subscription
            self.revision = revision
            self.properties = properties
            self.rows = rows
        }

        /// The wire form of a view-model change set.
        public init(subscription: Int, revision: Int, change: TodoListChange) {
            var properties: [String: JSONValue] = [:]
            if case .object(let all)? = try? JSONDecoder().decode(
                JSONValue.self, from: JSONEncoder().encode(change.properties))
            {
                for key in change.changedKeys { properties[key] = all[key] ?? .null }
            }
            self.init(
                subscription: subscription, revision: revision, properties: properties,
                rows: change.rowOperations.map(RowEdit.init))
        }

        /// Applies this event to a state, as a client does.
        public func apply(to state: inout TodoListState) throws {
            var all = try JSONDecoder().decode([String: JSONValue].self, from: JSONEncoder().encode(state.properties))
            all.merge(properties) { $1 }
            state.properties = try JSONDecoder().decode(TodoListProperties.self, from: JSONEncoder().encode(all))
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
}

/// One row edit on the wire: `{"op":"insert","index":2,"row":{…}}`,
/// `{"op":"remove","index":2}`, `{"op":"update","index":2,"row":{…}}`,
/// `{"op":"move","from":5,"index":2,"row":{…}}` (taken out at `from`, put
/// back at `index`), or `{"op":"reset","rows":[…]}`. Apply them in order.
public struct RowEdit: Codable, Hashable, Sendable {
    public enum Op: String, Codable, Sendable { case insert, remove, update, move, reset }
    public var op: Op
    public var from: Int?
    public var index: Int?
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
