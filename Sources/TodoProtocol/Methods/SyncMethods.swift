import CanonicalJSON
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
///
/// `expect` makes the call conditional, as `If-Match` makes a PUT: each
/// entry is a to-do as the caller last read it from `todo.export` (or ""
/// for one the list did not hold). A to-do of `text`, a `complete` or a
/// `remove` whose item no longer exports so (edited here since) is left
/// out and named in `outdated`, so that an edit made while the server's
/// version was on its way is never overwritten. `exported` is every named
/// item as it exports once the call is applied, read in the same step, at
/// `revision`: what the caller and the list agreed, with no later edit in it.
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
        /// The to-dos as the caller read them: a UID whose item exports
        /// otherwise now is left out of the call (`Result.outdated`).
        public var expect: [Version]?
        public init(
            text: String, complete: [String]? = nil, remove: [String]? = nil, rename: [Rename]? = nil, expect: [Version]? = nil
        ) {
            self.text = text
            self.complete = complete
            self.remove = remove
            self.rename = rename
            self.expect = expect
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case text, complete, remove, rename, expect
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .text: .required(String.wireType.schema)
            case .complete, .remove: .optional([String].wireType.schema)
            case .rename: .optional(JSONSchema.array(Rename.objectSchema))
            case .expect: .optional(JSONSchema.array(Version.objectSchema))
            }
        }
    }

    /// One to-do as `todo.export` writes it in iCalendar: a `VTODO` block,
    /// or "" for no item with that UID.
    public struct Version: Codable, Hashable, Sendable, KeyedSchema {
        public var uid: String
        public var text: String
        public init(uid: String, text: String) {
            self.uid = uid
            self.text = text
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case uid, text
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .uid, .text: .required(String.wireType.schema)
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
        /// UIDs left out because their items changed since the caller read them (`expect`).
        public var outdated: [String]
        /// Each item the call named (in `text`, `complete` or `expect`) that
        /// the list holds after it, as `todo.export` writes it at `revision`.
        public var exported: [Version]
        /// The list's revision once the call is applied.
        public var revision: Int

        public init(
            added: Int, updated: Int, removed: Int, skipped: [String], done: String?, outdated: [String] = [], exported: [Version] = [],
            revision: Int = 0
        ) {
            self.added = added
            self.updated = updated
            self.removed = removed
            self.skipped = skipped
            self.done = done
            self.outdated = outdated
            self.exported = exported
            self.revision = revision
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case added, updated, removed, skipped, done, outdated, exported, revision
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .added, .updated, .removed, .revision: .required(Int.wireType.schema)
            case .skipped, .outdated: .required([String].wireType.schema)
            case .done: .required(String?.wireType.schema)
            case .exported: .required(JSONSchema.array(Version.objectSchema))
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
