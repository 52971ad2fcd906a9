import TodoViewModels

/// `todo.add`: adds an item; the title is trimmed and must not be blank.
public enum AddTodo: RPCMethod {
    public static let name = "todo.add"

    public struct Params: Codable, Hashable, Sendable {
        public var title: String
        public init(title: String) { self.title = title }
    }

    public typealias Result = ItemResult
}

/// `todo.setDone`: marks an item done (`done: true`) or active (`done: false`).
public enum SetTodoDone: RPCMethod {
    public static let name = "todo.setDone"

    public struct Params: Codable, Hashable, Sendable {
        public var id: Int64
        public var done: Bool
        public init(id: Int64, done: Bool) {
            self.id = id
            self.done = done
        }
    }

    public typealias Result = ItemResult
}

/// `todo.remove`: deletes an item.
public enum RemoveTodo: RPCMethod {
    public static let name = "todo.remove"

    public struct Params: Codable, Hashable, Sendable {
        public var id: Int64
        public init(id: Int64) { self.id = id }
    }

    public struct Result: Codable, Hashable, Sendable {
        public var id: Int64
        public init(id: Int64) { self.id = id }
    }
}

/// `view.get`: the list view model's current state, once.
public enum GetListView: RPCMethod {
    public static let name = "view.get"
    public typealias Params = NoParams
    public typealias Result = TodoListState
}

/// `view.subscribe`: the list view model's current state, and from then on a
/// `view.changed` notification after every change. The state and the
/// registration are taken together, so no change falls between them.
public enum SubscribeListView: RPCMethod {
    public static let name = "view.subscribe"
    public typealias Params = NoParams
    public typealias Result = ListViewRevision
}

/// The list view model's state at one revision, for one subscription: what
/// `view.subscribe` answers and what every `view.changed` carries.
public struct ListViewRevision: Codable, Hashable, Sendable {
    public var subscription: Int
    public var revision: Int
    public var state: TodoListState

    public init(subscription: Int, revision: Int, state: TodoListState) {
        self.subscription = subscription
        self.revision = revision
        self.state = state
    }
}

/// The result of a command on one item: the item's row after the command.
public struct ItemResult: Codable, Hashable, Sendable {
    public var item: TodoRow
    public init(item: TodoRow) { self.item = item }
}
