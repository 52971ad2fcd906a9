import TodoViewModels

/// `todo.add`: adds an item; the title is trimmed and must not be blank.
public enum AddTodo: RPCMethod {
    public static let name = "todo.add"

    public struct Params: Codable, Hashable, Sendable {
        public var title: String
        /// `YYYY-MM-DD` (due that day) or an ISO 8601 date-time.
        public var due: String?
        public init(title: String, due: String? = nil) {
            self.title = title
            self.due = due
        }
    }

    public typealias Result = ItemResult
}

/// `todo.edit`: retitles an item (trimmed; blank is refused; the same title changes nothing).
public enum EditTodo: RPCMethod {
    public static let name = "todo.edit"

    public struct Params: Codable, Hashable, Sendable {
        public var id: Int64
        public var title: String
        public init(id: Int64, title: String) {
            self.id = id
            self.title = title
        }
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

/// `todo.setDue`: sets (`YYYY-MM-DD` or an ISO 8601 date-time) or clears (`null`) a due date.
public enum SetTodoDue: RPCMethod {
    public static let name = "todo.setDue"

    public struct Params: Codable, Hashable, Sendable {
        public var id: Int64
        /// Null clears, so it is always sent.
        @ExplicitNull public var due: String?
        public init(id: Int64, due: String?) {
            self.id = id
            self.due = due
        }

        private enum CodingKeys: String, CodingKey { case id, due }

        /// `due` must be there, as a date or as null: a request that forgot
        /// it is refused rather than read as "clear the due date".
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard container.contains(.due) else {
                throw DecodingError.keyNotFound(
                    CodingKeys.due, .init(codingPath: container.codingPath, debugDescription: "due is required (null clears it)"))
            }
            id = try container.decode(Int64.self, forKey: .id)
            due = try container.decodeNil(forKey: .due) ? nil : container.decode(String.self, forKey: .due)
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

/// `todo.toggleAll`: if any item is active all become done, otherwise all become active. One undo step.
public enum ToggleAll: RPCMethod {
    public static let name = "todo.toggleAll"
    public typealias Params = NoParams
    public typealias Result = CommandResult
}

/// `todo.clearCompleted`: deletes every done item. One undo step.
public enum ClearCompleted: RPCMethod {
    public static let name = "todo.clearCompleted"
    public typealias Params = NoParams
    public typealias Result = CommandResult
}

/// `todo.undo`: undoes the newest command not yet undone (`todo.nothingToUndo` if none).
public enum Undo: RPCMethod {
    public static let name = "todo.undo"
    public typealias Params = NoParams
    public typealias Result = CommandResult
}

/// `todo.redo`: redoes the newest undone command (`todo.nothingToRedo` if none).
public enum Redo: RPCMethod {
    public static let name = "todo.redo"
    public typealias Params = NoParams
    public typealias Result = CommandResult
}

/// Which list view a request is about: a shared named view (default `main`),
/// or, with `own`, a view of this request's own with its own filter and sort.
public struct ViewSelection: Codable, Hashable, Sendable {
    public var view: String?
    public var own: Bool?
    public var filter: ListFilter?
    public var sort: ListSort?

    public init(view: String? = nil, own: Bool? = nil, filter: ListFilter? = nil, sort: ListSort? = nil) {
        self.view = view
        self.own = own
        self.filter = filter
        self.sort = sort
    }
}

/// `view.get`: one view's state, once.
public enum GetListView: RPCMethod {
    public static let name = "view.get"
    public typealias Params = ViewSelection
    public typealias Result = TodoListState
}

/// `view.setOptions`: changes the filter and/or sort of a shared view (every
/// client on it sees the change; it is saved) or of a subscription's own view.
public enum SetViewOptions: RPCMethod {
    public static let name = "view.setOptions"

    public struct Params: Codable, Hashable, Sendable {
        /// A shared view's name (default `main`).
        public var view: String?
        /// Instead of `view`: the own view of this connection's subscription.
        public var subscription: Int?
        public var filter: ListFilter?
        public var sort: ListSort?
        public init(view: String? = nil, subscription: Int? = nil, filter: ListFilter? = nil, sort: ListSort? = nil) {
            self.view = view
            self.subscription = subscription
            self.filter = filter
            self.sort = sort
        }
    }

    public typealias Result = NoParams
}

/// `prompt.add`: the texts of the "new item" prompt.
public enum GetAddPrompt: RPCMethod {
    public static let name = "prompt.add"
    public typealias Params = NoParams
    public typealias Result = AddPromptViewModel
}

/// The result of a command on one item: the item's row after the command.
public struct ItemResult: Codable, Hashable, Sendable {
    public var item: TodoRow
    public init(item: TodoRow) { self.item = item }
}

/// The result of a command that is not about one item: what it did, worded
/// as undo and redo say it ("mark all done", "clear 2 completed items"), or
/// null when it changed nothing.
public struct CommandResult: Codable, Hashable, Sendable {
    @ExplicitNull public var done: String?
    public init(done: String?) { self.done = done }
}
