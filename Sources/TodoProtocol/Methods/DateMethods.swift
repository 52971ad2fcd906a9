import TodoViewModels

/// `date.parse`: what a typed date means now, without changing anything,
/// for clients that preview "→ Friday 27 November" before committing.
public enum ParseDate: RPCMethod {
    public static let name = "date.parse"
    public static let summary = "Reads a typed date as the daemon would (its clock and time zone) and says it back; changes nothing."

    public struct Params: Codable, Hashable, Sendable {
        public var text: String
        public init(text: String) { self.text = text }
    }

    public struct Result: Codable, Hashable, Sendable {
        /// ISO 8601: `2026-11-27`, or `2026-11-27T17:00:00Z` with a time.
        public var iso: String
        /// "day" or "moment".
        public var kind: String
        /// "Friday 27 November", "Friday 27 November 18:00".
        public var worded: String
        /// As a row would say it: "due in 4 days".
        public var dueText: String

        public init(_ preview: DatePreview) {
            iso = preview.iso
            kind = preview.kind
            worded = preview.worded
            dueText = preview.dueText
        }
    }

    public static var paramsSchema: JSONValue { JSONSchema.object(["text": JSONSchema.string]) }
    public static var resultSchema: JSONValue {
        JSONSchema.object([
            "iso": JSONSchema.string, "kind": JSONSchema.enumeration(["day", "moment"]), "worded": JSONSchema.string,
            "dueText": JSONSchema.string,
        ])
    }
    public static let errors = ["todo.invalidDueDate", "protocol.invalidParams"]
}
