import CanonicalJSON
import TodoViewState

/// `transaction`: several commands applied in order, all or nothing, as one
/// undo step and one event per subscription. A JSON-RPC batch is not that:
/// its members are carried out one by one, each its own transaction.
///
/// Each command is `{"method": NAME, "params": {...}}` with the params its
/// method takes alone. Allowed: every method that declares itself
/// `isTransactable` (the commands but undo and redo), in `ProtocolMethods.transactable`.
/// When one is refused, nothing is changed and the error names its index.
public enum Transaction: RPCMethod {
    public static let name = "transaction"
    public static let summary = "Applies commands in order, all or nothing, as one undo step and one event per subscription."
    public static let maximumCommands = 1000

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var commands: [Command]
        public init(commands: [Command]) { self.commands = commands }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case commands
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .commands:
                .required([
                    "type": "array", "minItems": 1, "maxItems": .integer(Int64(maximumCommands)), "items": Command.objectSchema,
                ])
            }
        }
    }

    public struct Command: Codable, Hashable, Sendable, KeyedSchema {
        public var method: String
        public var params: JSONValue?
        public init(method: String, params: JSONValue? = nil) {
            self.method = method
            self.params = params
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case method, params
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .method: .required(JSONSchema.enumeration(ProtocolMethods.transactable.map { $0.name }))
            case .params: .optional(["type": "object"])
            }
        }
    }

    public struct Result: Codable, Hashable, Sendable, KeyedSchema {
        /// One entry per command, in order.
        public var results: [Entry]
        /// The undo step's description ("add “a”, complete “b”"), null if nothing changed.
        @ExplicitNull public var done: String?

        public init(results: [Entry], done: String?) {
            self.results = results
            self.done = done
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case results, done
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .results: .required(JSONSchema.array(Entry.objectSchema))
            case .done: .required(String?.wireType.schema)
            }
        }
    }

    /// What one command did: the id of the item it was about (null for bulk
    /// commands), that item's row after the whole transaction (null if it
    /// was removed), and what the command did (null if nothing).
    public struct Entry: Codable, Hashable, Sendable, KeyedSchema {
        @ExplicitNull public var id: Int64?
        @ExplicitNull public var item: TodoRow?
        @ExplicitNull public var done: String?

        public init(id: Int64?, item: TodoRow?, done: String?) {
            self.id = id
            self.item = item
            self.done = done
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, item, done
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .id: .required(Int64?.wireType.schema)
            case .item: .required(JSONSchema.nullable(JSONSchema.ref("TodoRow")))
            case .done: .required(String?.wireType.schema)
            }
        }
    }

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static var resultSchema: JSONValue { Result.objectSchema }

    /// Every transactable method's errors must be here, each command's
    /// refusal being the transaction's (a test checks).
    public static let errors =
        [
            "transaction.undoNotAllowed", "todo.notFound", "todo.invalidTitle", "todo.invalidDueDate", "todo.invalidShorthand",
            "todo.invalidRecurrence", "todo.invalidNote", "todo.noteNotFound", "todo.tooMany",
        ] + commandErrors
}
