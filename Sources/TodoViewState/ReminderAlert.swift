/// A reminder raised on the list: an item left undone too long, due soon, or overdue.
public struct ReminderAlert: Codable, Hashable, Sendable, WireTyped {
    /// Described once in the protocol's schema, under this name.
    public static let wireType = WireType.named("ReminderAlert")

    public enum Condition: String, Codable, Hashable, Sendable, CaseIterable {
        /// Not done for longer than the reminder age (default 24 hours).
        case waiting
        /// Not done and past its due date.
        case overdue
        /// Not done and due at a time of day within the lead time (`remind-before`).
        case dueSoon
    }

    public var id: Int64
    public var condition: Condition
    /// "“buy milk” has waited for more than a day", "“pay rent” is overdue (due yesterday)".
    public var message: String

    public init(id: Int64, condition: Condition, message: String) {
        self.id = id
        self.condition = condition
        self.message = message
    }
}
