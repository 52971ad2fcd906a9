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

    public struct Params: Codable, Hashable, Sendable {
        public var commands: [Command]
        public init(commands: [Command]) { self.commands = commands }
    }

    public struct Command: Codable, Hashable, Sendable {
        public var method: String
        public var params: JSONValue?
        public init(method: String, params: JSONValue? = nil) {
            self.method = method
            self.params = params
        }
    }

    public struct Result: Codable, Hashable, Sendable {
        /// One entry per command, in order.
        public var results: [Entry]
        /// The undo step's description ("add “a”, complete “b”"), null if nothing changed.
        @ExplicitNull public var done: String?

        public init(results: [Entry], done: String?) {
            self.results = results
            self.done = done
        }
    }

    /// What one command did: the id of the item it was about (null for bulk
    /// commands), that item's row after the whole transaction (null if it
    /// was removed), and what the command did (null if nothing).
    public struct Entry: Codable, Hashable, Sendable {
        @ExplicitNull public var id: Int64?
        @ExplicitNull public var item: TodoRow?
        @ExplicitNull public var done: String?

        public init(id: Int64?, item: TodoRow?, done: String?) {
            self.id = id
            self.item = item
            self.done = done
        }
    }

    public static var paramsSchema: JSONValue {
        JSONSchema.object([
            "commands": [
                "type": "array", "minItems": 1, "maxItems": .integer(Int64(maximumCommands)),
                "items": JSONSchema.object(
                    [
                        "method": JSONSchema.enumeration(ProtocolMethods.transactable.map { $0.name }),
                        "params": ["type": "object"],
                    ], optional: ["params"]),
            ]
        ])
    }

    public static var resultSchema: JSONValue {
        JSONSchema.object([
            "results": JSONSchema.array(
                JSONSchema.object([
                    "id": JSONSchema.nullable(JSONSchema.integer), "item": JSONSchema.nullable(JSONSchema.ref("TodoRow")),
                    "done": JSONSchema.nullable(JSONSchema.string),
                ])),
            "done": JSONSchema.nullable(JSONSchema.string),
        ])
    }

    /// Every transactable method's errors must be here, each command's
    /// refusal being the transaction's (a test checks).
    public static let errors =
        [
            "transaction.undoNotAllowed", "todo.notFound", "todo.invalidTitle", "todo.invalidDueDate", "todo.invalidShorthand",
            "todo.invalidRecurrence", "todo.invalidNote", "todo.noteNotFound", "todo.tooMany",
        ] + commandErrors
}
