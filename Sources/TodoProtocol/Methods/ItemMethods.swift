import CanonicalJSON
import TodoViewState

// The commands on one item. Each is one undo step and may be part of a `transaction`.

/// `todo.add`: adds an item, from a literal `title` or from shorthand `text`.
public enum AddTodo: RPCMethod {
    public static let name = "todo.add"
    public static let summary =
        "Adds an item: title taken literally, or text read as shorthand (buy milk +errands pro:home due:fri); exactly one."

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        /// The title, exactly (trimmed).
        public var title: String?
        /// Add shorthand (PROTOCOL.md, Shorthand): title words, `+tag`, `project:`, `priority:`, `due:`, `wait:`, `recur:`.
        public var text: String?
        /// A date as people type it (PROTOCOL.md, Dates); wins over a `due:` in `text`.
        public var due: String?
        public init(title: String? = nil, text: String? = nil, due: String? = nil) {
            self.title = title
            self.text = text
            self.due = due
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case title, text, due }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .title, .text: .optional(String.wireType.schema)
            case .due: .optional(JSONSchema.dueDate)
            }
        }
    }

    public typealias Result = ItemResult

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static var resultSchema: JSONValue { ItemResult.schema }
    public static let errors =
        ["todo.invalidTitle", "todo.invalidDueDate", "todo.invalidShorthand", "todo.invalidRecurrence", "todo.tooMany"]
        + commandErrors
    public static let isTransactable = true
    public static let paramsMayBeOmitted = false
}

/// `todo.modify`: changes an item with modify shorthand.
public enum ModifyTodo: RPCMethod {
    public static let name = "todo.modify"
    public static let summary =
        "Changes an item with shorthand: +tag -tag project: priority: due: wait: recur: (empty value clears); other words retitle it."

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var id: Int64
        public var text: String
        public init(id: Int64, text: String) {
            self.id = id
            self.text = text
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case id, text }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .id: .required(JSONSchema.itemID)
            case .text: .required(String.wireType.schema)
            }
        }
    }

    public typealias Result = ItemResult

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static var resultSchema: JSONValue { ItemResult.schema }
    public static let errors =
        [
            "todo.notFound", "todo.invalidTitle", "todo.invalidDueDate", "todo.invalidShorthand", "todo.invalidRecurrence",
            "todo.tooMany",
        ] + commandErrors
    public static let isTransactable = true
}

/// `todo.addNote`: adds a timestamped note to an item.
public enum AddTodoNote: RPCMethod {
    public static let name = "todo.addNote"
    public static let summary = "Adds a note (one line, timestamped) to an item."

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var id: Int64
        public var text: String
        public init(id: Int64, text: String) {
            self.id = id
            self.text = text
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case id, text }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .id: .required(JSONSchema.itemID)
            case .text: .required(String.wireType.schema)
            }
        }
    }

    public typealias Result = ItemResult

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static var resultSchema: JSONValue { ItemResult.schema }
    public static let errors = ["todo.notFound", "todo.invalidNote", "todo.tooMany"] + commandErrors
    public static let isTransactable = true
}

/// `todo.removeNote`: removes one note of an item, by number (1 is the oldest).
public enum RemoveTodoNote: RPCMethod {
    public static let name = "todo.removeNote"
    public static let summary = "Removes an item's note by number (1 is the oldest, as todo.get lists them)."

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var id: Int64
        public var number: Int
        public init(id: Int64, number: Int) {
            self.id = id
            self.number = number
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case id, number }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .id: .required(JSONSchema.itemID)
            case .number: .required(["type": "integer", "minimum": 1])
            }
        }
    }

    public typealias Result = ItemResult

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static var resultSchema: JSONValue { ItemResult.schema }
    public static let errors = ["todo.notFound", "todo.noteNotFound"] + commandErrors
    public static let isTransactable = true
}

/// `todo.get`: one item in full: its row, its notes, and when each field changed.
public enum GetTodo: RPCMethod {
    public static let name = "todo.get"
    public static let summary = "One item in full: its row, its notes, and when each field last changed."

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var id: Int64
        public init(id: Int64) { self.id = id }

        enum CodingKeys: String, CodingKey, CaseIterable { case id }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .id: .required(JSONSchema.itemID)
            }
        }
    }

    public typealias Result = ItemDetails

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static var resultSchema: JSONValue { ItemDetails.reference }
    public static let errors = ["todo.notFound", "protocol.invalidParams"]
}

/// `todo.edit`: retitles an item (trimmed; blank is refused; the same title changes nothing).
public enum EditTodo: RPCMethod {
    public static let name = "todo.edit"
    public static let summary = "Retitles an item; the same title changes nothing."

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var id: Int64
        public var title: String
        public init(id: Int64, title: String) {
            self.id = id
            self.title = title
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case id, title }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .id: .required(JSONSchema.itemID)
            case .title: .required(String.wireType.schema)
            }
        }
    }

    public typealias Result = ItemResult

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static var resultSchema: JSONValue { ItemResult.schema }
    public static let errors = ["todo.notFound", "todo.invalidTitle"] + commandErrors
    public static let isTransactable = true
}

/// `todo.setDone`: marks an item done (`done: true`) or active (`done: false`).
public enum SetTodoDone: RPCMethod {
    public static let name = "todo.setDone"
    public static let summary = "Marks an item done or active."

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var id: Int64
        public var done: Bool
        public init(id: Int64, done: Bool) {
            self.id = id
            self.done = done
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case id, done }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .id: .required(JSONSchema.itemID)
            case .done: .required(Bool.wireType.schema)
            }
        }
    }

    public typealias Result = ItemResult

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static var resultSchema: JSONValue { ItemResult.schema }
    public static let errors = ["todo.notFound"] + commandErrors
    public static let isTransactable = true
}

/// `todo.setDue`: sets (`YYYY-MM-DD` or an ISO 8601 date-time) or clears (`null`) a due date.
public enum SetTodoDue: RPCMethod {
    public static let name = "todo.setDue"
    public static let summary = "Sets or (with null) clears an item's due date."

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var id: Int64
        /// Null clears, so it is always sent.
        @ExplicitNull public var due: String?
        public init(id: Int64, due: String?) {
            self.id = id
            self.due = due
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case id, due }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .id: .required(JSONSchema.itemID)
            // Required although Optional: null is how it is cleared.
            case .due: .required(JSONSchema.nullable(JSONSchema.dueDate))
            }
        }

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

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static var resultSchema: JSONValue { ItemResult.schema }
    public static let errors = ["todo.notFound", "todo.invalidDueDate"] + commandErrors
    public static let isTransactable = true
}

/// `todo.remove`: deletes an item.
public enum RemoveTodo: RPCMethod {
    public static let name = "todo.remove"
    public static let summary = "Deletes an item."

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var id: Int64
        public init(id: Int64) { self.id = id }

        enum CodingKeys: String, CodingKey, CaseIterable { case id }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .id: .required(JSONSchema.itemID)
            }
        }
    }

    public struct Result: Codable, Hashable, Sendable, KeyedSchema {
        public var id: Int64
        public init(id: Int64) { self.id = id }

        enum CodingKeys: String, CodingKey, CaseIterable { case id }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .id: .required(Int64.wireType.schema)
            }
        }
    }

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static var resultSchema: JSONValue { Result.objectSchema }
    public static let errors = ["todo.notFound"] + commandErrors
    public static let isTransactable = true
}

/// One item in full, as `todo.get` gives it.
public struct ItemDetails: Codable, Hashable, Sendable, KeyedSchema {
    public var item: TodoRow
    public var notes: [ItemNote]
    public var changes: [FieldChangeTime]
    /// "created 2026-11-02 09:14 (3 weeks ago)" and the like, one line per fact, for `todoctl show`.
    public var lines: [String]

    public init(item: TodoRow, notes: [ItemNote], changes: [FieldChangeTime], lines: [String]) {
        self.item = item
        self.notes = notes
        self.changes = changes
        self.lines = lines
    }

    public struct ItemNote: Codable, Hashable, Sendable, KeyedSchema {
        public var number: Int
        public var text: String
        /// ISO 8601.
        public var added: String
        /// "2026-11-20 14:03".
        public var addedText: String

        public init(number: Int, text: String, added: String, addedText: String) {
            self.number = number
            self.text = text
            self.added = added
            self.addedText = addedText
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case number, text, added, addedText }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .number: .required(Int.wireType.schema)
            case .text, .added, .addedText: .required(String.wireType.schema)
            }
        }
    }

    public struct FieldChangeTime: Codable, Hashable, Sendable, KeyedSchema {
        public var field: String
        public var at: String
        public var text: String

        public init(field: String, at: String, text: String) {
            self.field = field
            self.at = at
            self.text = text
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case field, at, text }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .field, .at, .text: .required(String.wireType.schema)
            }
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case item, notes, changes, lines }

    static func schema(of key: CodingKeys) -> KeySchema {
        switch key {
        case .item: .required(JSONSchema.ref("TodoRow"))
        case .notes: .required(JSONSchema.array(ItemNote.objectSchema))
        case .changes: .required(JSONSchema.array(FieldChangeTime.objectSchema))
        case .lines: .required([String].wireType.schema)
        }
    }

    /// Its schema is one of the shared types, `ItemDetails`.
    static let reference = JSONSchema.ref("ItemDetails")
}

/// The result of a command on one item: the item's row after the command.
public struct ItemResult: Codable, Hashable, Sendable, KeyedSchema {
    public var item: TodoRow
    public init(item: TodoRow) { self.item = item }

    enum CodingKeys: String, CodingKey, CaseIterable { case item }

    static func schema(of key: CodingKeys) -> KeySchema {
        switch key {
        case .item: .required(JSONSchema.ref("TodoRow"))
        }
    }


    /// Its schema is one of the shared types, as several methods return it.
    static let schema = JSONSchema.ref("ItemResult")
}

extension RPCMethod {
    /// What any command can be refused with besides its own errors:
    /// parameters that do not fit, and a store that cannot take the change.
    static var commandErrors: [String] { ["protocol.invalidParams", "store.writeFailed", "store.unavailable"] }
}
