/// A reminder that should be on the desktop now, worded for a notification:
/// what `todoctl notify` shows, and what its actions refer to
/// (`id` and `condition` name the reminder in `reminder.snooze` and
/// `reminder.dismiss`).
public struct DesktopReminder: Codable, Hashable, Sendable, WireTyped {
    /// Described once in the protocol's schema, under this name.
    public static let wireType = WireType.named("DesktopReminder")

    /// How loudly a notification server should show it (freedesktop
    /// urgency levels 0, 1 and 2).
    public enum Urgency: String, Codable, Hashable, Sendable, CaseIterable {
        case low, normal, critical
    }

    public var id: Int64
    public var condition: ReminderAlert.Condition
    /// The item's title.
    public var summary: String
    /// "overdue (due yesterday) · project home", "due today at 15:00", "waiting for more than a day".
    public var body: String
    /// Critical when overdue or of high priority; low for low priority; else normal.
    public var urgency: Urgency

    public init(id: Int64, condition: ReminderAlert.Condition, summary: String, body: String, urgency: Urgency) {
        self.id = id
        self.condition = condition
        self.summary = summary
        self.body = body
        self.urgency = urgency
    }
}
