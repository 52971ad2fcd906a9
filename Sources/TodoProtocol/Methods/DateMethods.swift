import CanonicalJSON
import TodoViewState

/// `date.parse`: what a typed date means now, without changing anything,
/// for clients that preview "→ Friday 27 November" before committing.
public enum ParseDate: RPCMethod {
    public static let name = "date.parse"
    public static let summary = "Reads a typed date as the daemon would (its clock and time zone) and says it back; changes nothing."

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var text: String
        public init(text: String) { self.text = text }

        enum CodingKeys: String, CodingKey, CaseIterable { case text }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .text: .required(String.wireType.schema)
            }
        }
    }

    public struct Result: Codable, Hashable, Sendable, KeyedSchema {
        /// ISO 8601: `2026-11-27`, or `2026-11-27T17:00:00Z` with a time.
        public var iso: String
        /// "day" or "moment".
        public var kind: String
        /// "Friday 27 November", "Friday 27 November 18:00".
        public var worded: String
        /// As a row would say it: "due in 4 days".
        public var dueText: String

        public init(iso: String, kind: String, worded: String, dueText: String) {
            self.iso = iso
            self.kind = kind
            self.worded = worded
            self.dueText = dueText
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case iso, kind, worded, dueText
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .iso, .worded, .dueText: .required(String.wireType.schema)
            case .kind: .required(JSONSchema.enumeration(["day", "moment"]))
            }
        }
    }

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static var resultSchema: JSONValue { Result.objectSchema }
    public static let errors = ["todo.invalidDueDate", "protocol.invalidParams"]
}
