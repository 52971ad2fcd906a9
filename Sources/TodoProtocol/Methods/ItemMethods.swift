import TodoViewModels

// The commands on one item. Each is one undo step and may be part of a `transaction`.

/// `todo.add`: adds an item; the title is trimmed and must not be blank.
public enum AddTodo: RPCMethod {
    public static let name = "todo.add"
    public static let summary = "Adds an item; the title is trimmed and must not be blank."

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

    public static var paramsSchema: JSONValue {
        JSONSchema.object(["title": JSONSchema.string, "due": JSONSchema.ref("DueDate")], optional: ["due"])
    }
    public static var resultSchema: JSONValue { ItemResult.schema }
    public static let errors = ["todo.invalidTitle", "todo.invalidDueDate"] + commandErrors
    public static let isTransactable = true
}

/// `todo.edit`: retitles an item (trimmed; blank is refused; the same title changes nothing).
public enum EditTodo: RPCMethod {
    public static let name = "todo.edit"
    public static let summary = "Retitles an item; the same title changes nothing."

    public struct Params: Codable, Hashable, Sendable {
        public var id: Int64
        public var title: String
        public init(id: Int64, title: String) {
            self.id = id
            self.title = title
        }
    }

    public typealias Result = ItemResult

    public static var paramsSchema: JSONValue { JSONSchema.object(["id": JSONSchema.itemID, "title": JSONSchema.string]) }
    public static var resultSchema: JSONValue { ItemResult.schema }
    public static let errors = ["todo.notFound", "todo.invalidTitle"] + commandErrors
    public static let isTransactable = true
}

/// `todo.setDone`: marks an item done (`done: true`) or active (`done: false`).
public enum SetTodoDone: RPCMethod {
    public static let name = "todo.setDone"
    public static let summary = "Marks an item done or active."

    public struct Params: Codable, Hashable, Sendable {
        public var id: Int64
        public var done: Bool
        public init(id: Int64, done: Bool) {
            self.id = id
            self.done = done
        }
    }

    public typealias Result = ItemResult

    public static var paramsSchema: JSONValue { JSONSchema.object(["id": JSONSchema.itemID, "done": JSONSchema.boolean]) }
    public static var resultSchema: JSONValue { ItemResult.schema }
    public static let errors = ["todo.notFound"] + commandErrors
    public static let isTransactable = true
}

/// `todo.setDue`: sets (`YYYY-MM-DD` or an ISO 8601 date-time) or clears (`null`) a due date.
public enum SetTodoDue: RPCMethod {
    public static let name = "todo.setDue"
    public static let summary = "Sets or (with null) clears an item's due date."

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

    public static var paramsSchema: JSONValue {
        JSONSchema.object(["id": JSONSchema.itemID, "due": JSONSchema.nullable(JSONSchema.ref("DueDate"))])
    }
    public static var resultSchema: JSONValue { ItemResult.schema }
    public static let errors = ["todo.notFound", "todo.invalidDueDate"] + commandErrors
    public static let isTransactable = true
}

/// `todo.remove`: deletes an item.
public enum RemoveTodo: RPCMethod {
    public static let name = "todo.remove"
    public static let summary = "Deletes an item."

    public struct Params: Codable, Hashable, Sendable {
        public var id: Int64
        public init(id: Int64) { self.id = id }
    }

    public struct Result: Codable, Hashable, Sendable {
        public var id: Int64
        public init(id: Int64) { self.id = id }
    }

    public static var paramsSchema: JSONValue { JSONSchema.object(["id": JSONSchema.itemID]) }
    public static var resultSchema: JSONValue { JSONSchema.object(["id": JSONSchema.integer]) }
    public static let errors = ["todo.notFound"] + commandErrors
    public static let isTransactable = true
}

/// The result of a command on one item: the item's row after the command.
public struct ItemResult: Codable, Hashable, Sendable {
    public var item: TodoRow
    public init(item: TodoRow) { self.item = item }

    /// Its schema is one of the shared types, as several methods return it.
    static let schema = JSONSchema.ref("ItemResult")
}

extension RPCMethod {
    /// What any command can be refused with besides its own errors:
    /// parameters that do not fit, and a store that cannot take the change.
    static var commandErrors: [String] { ["protocol.invalidParams", "store.writeFailed"] }
}
