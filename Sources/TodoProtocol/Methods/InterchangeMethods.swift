import CanonicalJSON
import TodoModel
import TodoViewState

/// `todo.import`: a Taskwarrior, todo.txt or iCalendar file, imported as
/// one undo step, all or nothing.
///
/// A file longer than a request line may be is sent in parts: each part
/// but the last with `more: true` (todod keeps it, for this connection
/// only, and answers with `staged`), the last without. The parts join as
/// they were cut, anywhere. `dryRun` reports without changing anything.
public enum ImportTodos: RPCMethod {
    public static let name = "todo.import"
    public static let summary =
        "Imports Taskwarrior JSON, todo.txt or iCalendar as one undo step (all or nothing); long text in parts (more: true); dryRun only reports."
    /// The most text one connection may stage, and all connections together.
    public static let maximumStagedBytes = 64 << 20
    public static let maximumStagedBytesInAll = 128 << 20
    /// At most this many items are listed in a reply; `unlisted` counts the rest.
    public static let maximumListed = 5_000

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var format: InterchangeFormat
        public var text: String
        public var more: Bool?
        public var dryRun: Bool?
        public init(format: InterchangeFormat, text: String, more: Bool? = nil, dryRun: Bool? = nil) {
            self.format = format
            self.text = text
            self.more = more
            self.dryRun = dryRun
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case format, text, more, dryRun
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .format: .required(InterchangeFormat.schema)
            case .text: .required(String.wireType.schema)
            case .more, .dryRun: .optional(Bool.wireType.schema)
            }
        }
    }

    public struct Result: Codable, Hashable, Sendable, KeyedSchema {
        /// Bytes staged so far (a part with `more`); 0 once the import is done.
        public var staged: Int
        public var added: Int
        public var updated: Int
        public var unchanged: Int
        public var skipped: Int
        /// At most `maximumListed`: for a dry run in the file's order; for an
        /// import those with remarks and skipped ones first, then the rest.
        public var items: [Entry]
        public var unlisted: Int
        /// The undo step's description, null when nothing changed (or a dry run, or a part).
        @ExplicitNull public var done: String?

        public init(
            staged: Int, added: Int = 0, updated: Int = 0, unchanged: Int = 0, skipped: Int = 0, items: [Entry] = [],
            unlisted: Int = 0, done: String? = nil
        ) {
            self.staged = staged
            self.added = added
            self.updated = updated
            self.unchanged = unchanged
            self.skipped = skipped
            self.items = items
            self.unlisted = unlisted
            self.done = done
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case staged, added, updated, unchanged, skipped, items, unlisted, done
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .staged, .added, .updated, .unchanged, .skipped, .unlisted: .required(Int.wireType.schema)
            case .items: .required(JSONSchema.array(Entry.objectSchema))
            case .done: .required(String?.wireType.schema)
            }
        }
    }

    public struct Entry: Codable, Hashable, Sendable, KeyedSchema {
        /// "add", "update", "unchanged" or "skip".
        public var action: String
        @ExplicitNull public var id: Int64?
        public var title: String
        /// Where in the file: "line 3", "task 12", "to-do 2 (line 14)".
        public var source: String
        /// What could not be carried over as it was, or why it was skipped.
        public var remarks: [String]

        public init(action: String, id: Int64?, title: String, source: String, remarks: [String]) {
            self.action = action
            self.id = id
            self.title = title
            self.source = source
            self.remarks = remarks
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case action, id, title, source, remarks
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .action: .required(JSONSchema.enumeration(["add", "update", "unchanged", "skip"]))
            case .id: .required(JSONSchema.nullable(JSONSchema.itemID))
            case .title, .source: .required(String.wireType.schema)
            case .remarks: .required([String].wireType.schema)
            }
        }
    }

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static var resultSchema: JSONValue { Result.objectSchema }

    public static let errors = ["todo.invalidImport", "todo.importTooLarge", "todo.importOutdated"] + commandErrors
}

/// `todo.export`: the list, or what a query matches, in one of the formats,
/// in parts of at most about `partBytes` each: a reply is bounded.
public enum ExportTodos: RPCMethod {
    public static let name = "todo.export"
    public static let summary =
        "Writes every item, or those a query matches, as Taskwarrior JSON, todo.txt or iCalendar, in parts: call again with the cursor until it is null."
    public static let partBytes = 512 << 10

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var format: InterchangeFormat
        public var query: String?
        /// From the previous part's result; absent for the first part.
        public var cursor: String?
        public init(format: InterchangeFormat, query: String? = nil, cursor: String? = nil) {
            self.format = format
            self.query = query
            self.cursor = cursor
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case format, query, cursor
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .format: .required(InterchangeFormat.schema)
            case .query, .cursor: .optional(String.wireType.schema)
            }
        }
    }

    public struct Result: Codable, Hashable, Sendable, KeyedSchema {
        /// This part of the document: the parts joined in order are the whole.
        public var text: String
        /// Items in this part.
        public var count: Int
        /// Pass it to get the next part; null when this part ends the document.
        @ExplicitNull public var cursor: String?
        public init(text: String, count: Int, cursor: String?) {
            self.text = text
            self.count = count
            self.cursor = cursor
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case text, count, cursor
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .text: .required(String.wireType.schema)
            case .count: .required(Int.wireType.schema)
            case .cursor: .required(String?.wireType.schema)
            }
        }
    }

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static var resultSchema: JSONValue { Result.objectSchema }

    public static let errors = ["todo.invalidQuery", "protocol.invalidParams"]
}

extension InterchangeFormat {
    /// The formats by name, as `todo.import` and `todo.export` take them.
    static var schema: JSONValue { JSONSchema.enumeration(allCases.map(\.rawValue)) }
}
