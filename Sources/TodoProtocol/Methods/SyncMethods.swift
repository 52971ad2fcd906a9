import TodoViewState

/// `sync.apply`: what a calendar server changed, brought into the list as
/// one transaction whose events say `cause.origin: "sync"`.
///
/// The sync companion (`todod-sync`) calls it; any client may. `text` is
/// iCalendar (a `VCALENDAR` of `VTODO`s, or empty): each to-do updates the
/// item whose UID it carries, or is added, as `todo.import` would do it.
/// `remove` names by UID the items the server deleted: each goes alone,
/// its subtasks and dependents stay. `complete` completes items as
/// `todo.setDone` does, and `rename` gives items new UIDs (the next
/// occurrence of a repeating item takes the UID the server knows the
/// repetition by; it comes with nothing else). One undo step, "sync: …": undo takes
/// the synced change back, and the sync then sends the undo to the server.
public enum ApplySync: RPCMethod {
    public static let name = "sync.apply"
    public static let summary =
        "Brings in what a calendar server changed (iCalendar to-dos by UID, and UIDs it deleted) as one undo step whose events say cause.origin \"sync\"."
    /// The `cause.origin` of the events a sync's change sends.
    public static let origin = "sync"

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        /// iCalendar to-dos (a `VCALENDAR`), or "".
        public var text: String
        /// UIDs of items to complete as `todo.setDone` would (a repeating one brings its next occurrence).
        public var complete: [String]?
        /// UIDs of items the server deleted.
        public var remove: [String]?
        /// Items to give new UIDs, with nothing else in the call.
        public var rename: [Rename]?
        public init(text: String, complete: [String]? = nil, remove: [String]? = nil, rename: [Rename]? = nil) {
            self.text = text
            self.complete = complete
            self.remove = remove
            self.rename = rename
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case text, complete, remove, rename
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .text: .required(String.wireType.schema)
            case .complete, .remove: .optional([String].wireType.schema)
            case .rename: .optional(JSONSchema.array(Rename.objectSchema))
            }
        }
    }

    public struct Rename: Codable, Hashable, Sendable, KeyedSchema {
        public var from: String
        public var to: String
        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case from, to
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .from, .to: .required(String.wireType.schema)
            }
        }
    }

    public struct Result: Codable, Hashable, Sendable, KeyedSchema {
        public var added: Int
        public var updated: Int
        public var removed: Int
        /// To-dos of `text` left out, each with why ("a changed occurrence of UID …").
        public var skipped: [String]
        /// The undo step's description, null when nothing changed.
        @ExplicitNull public var done: String?

        public init(added: Int, updated: Int, removed: Int, skipped: [String], done: String?) {
            self.added = added
            self.updated = updated
            self.removed = removed
            self.skipped = skipped
            self.done = done
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case added, updated, removed, skipped, done
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .added, .updated, .removed: .required(Int.wireType.schema)
            case .skipped: .required([String].wireType.schema)
            case .done: .required(String?.wireType.schema)
            }
        }
    }

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static var resultSchema: JSONValue { Result.objectSchema }

    public static let errors = ["todo.invalidImport", "todo.importOutdated"] + commandErrors
}

/// `sync.lease`: whether this instance is the one to sync the list with a
/// calendar server. A list of one instance always is; of a list several
/// instances share (PostgreSQL), one at a time is, and another takes over
/// within seconds when it stops. `todod-sync` asks before each round.
public enum SyncLeaseMethod: RPCMethod {
    public static let name = "sync.lease"
    public static let summary =
        "Whether this instance is the one to sync the list with a calendar server (always, but for one instance at a time of a shared list)."
    public typealias Params = NoParams

    public struct Result: Codable, Hashable, Sendable, KeyedSchema {
        public var granted: Bool
        public init(granted: Bool) { self.granted = granted }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case granted
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .granted: .required(Bool.wireType.schema)
            }
        }
    }

    public static var resultSchema: JSONValue { Result.objectSchema }
    public static let errors: [String] = []
}
