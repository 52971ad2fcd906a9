import CanonicalJSON
import TodoViewState

// Reminders on the desktop: snoozing and dismissing them. What is on the
// desktop is every view's `desktopReminders` property; these change it for
// every client, and are stored.

/// Names one reminder: an item and a condition, as `desktopReminders` and
/// `alerts` give them. Both methods' `id` and `condition` say it.
private enum ReminderKeySchema {
    static let id = KeySchema.required(JSONSchema.itemID)
    static let condition = KeySchema.required(JSONSchema.enumeration(ReminderAlert.Condition.allCases.map(\.rawValue)))
}

/// `reminder.snooze`: keeps a reminder off the desktop until a moment, when it comes back.
public enum SnoozeReminder: RPCMethod {
    public static let name = "reminder.snooze"
    public static let summary =
        "Keeps a reminder off the desktop for some minutes, or until a date (date text, as for due); stored, it comes back then."

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var id: Int64
        public var condition: ReminderAlert.Condition
        /// How many minutes from now; or else `until`.
        public var minutes: Int?
        /// Date text read with todod's clock: "tomorrow 9am", "fri", an ISO 8601 date-time.
        public var until: String?
        public init(id: Int64, condition: ReminderAlert.Condition, minutes: Int? = nil, until: String? = nil) {
            self.id = id
            self.condition = condition
            self.minutes = minutes
            self.until = until
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, condition, minutes, until
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .id: ReminderKeySchema.id
            case .condition: ReminderKeySchema.condition
            case .minutes: .optional(["type": "integer", "minimum": 1, "maximum": 525_600])
            case .until: .optional(String.wireType.schema)
            }
        }
    }

    public typealias Result = NoParams

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static let errors = ["todo.notFound", "todo.invalidDueDate", "protocol.invalidParams", "store.writeFailed", "store.unavailable"]
}

/// `reminder.dismiss`: keeps a reminder off the desktop for good.
public enum DismissReminder: RPCMethod {
    public static let name = "reminder.dismiss"
    public static let summary = "Keeps a reminder off the desktop for good (its notification was closed); stored."

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var id: Int64
        public var condition: ReminderAlert.Condition
        public init(id: Int64, condition: ReminderAlert.Condition) {
            self.id = id
            self.condition = condition
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, condition
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .id: ReminderKeySchema.id
            case .condition: ReminderKeySchema.condition
            }
        }
    }

    public typealias Result = NoParams

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static let errors = ["todo.notFound", "protocol.invalidParams", "store.writeFailed", "store.unavailable"]
}
