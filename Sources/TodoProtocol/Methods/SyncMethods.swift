import TodoViewModels

/// `sync.apply`: what a calendar server changed, brought into the list as
/// one transaction whose events say `cause.origin: "sync"`.
///
/// The sync companion (`todod-sync`) calls it; any client may. `text` is
/// iCalendar (a `VCALENDAR` of `VTODO`s, or empty): each to-do updates the
/// item whose UID it carries, or is added, as `todo.import` would do it.
/// `remove` names by UID the items the server deleted: each goes alone,
/// its subtasks and dependents stay. One undo step, "sync: …": undo takes
/// the synced change back, and the sync then sends the undo to the server.
public enum ApplySync: RPCMethod {
    public static let name = "sync.apply"
    public static let summary =
        "Brings in what a calendar server changed (iCalendar to-dos by UID, and UIDs it deleted) as one undo step whose events say cause.origin \"sync\"."
    /// The `cause.origin` of the events a sync's change sends.
    public static let origin = "sync"

    public struct Params: Codable, Hashable, Sendable {
        public var text: String
        public var remove: [String]?
        public init(text: String, remove: [String]? = nil) {
            self.text = text
            self.remove = remove
        }
    }

    public struct Result: Codable, Hashable, Sendable {
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
    }

    public static var paramsSchema: JSONValue {
        JSONSchema.object(["text": JSONSchema.string, "remove": JSONSchema.array(JSONSchema.string)], optional: ["remove"])
    }

    public static var resultSchema: JSONValue {
        JSONSchema.object([
            "added": JSONSchema.integer, "updated": JSONSchema.integer, "removed": JSONSchema.integer,
            "skipped": JSONSchema.array(JSONSchema.string), "done": JSONSchema.nullable(JSONSchema.string),
        ])
    }

    public static let errors = ["todo.invalidImport", "todo.importOutdated"] + commandErrors
}
