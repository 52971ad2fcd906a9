/// One notification as `org.freedesktop.Notifications.Notify` takes it
/// (Desktop Notifications Specification 1.2): who sends it, what it says,
/// the buttons it offers and how urgent it is.
public struct DesktopNotification: Hashable, Sendable {
    /// A button: `key` comes back in `ActionInvoked`, `label` is shown.
    public struct Action: Hashable, Sendable {
        public var key: String
        public var label: String
        public init(key: String, label: String) {
            self.key = key
            self.label = label
        }
    }

    /// The specification's urgency levels (the `urgency` hint, a byte).
    public enum Urgency: UInt8, Sendable {
        case low = 0, normal = 1, critical = 2
    }

    public var appName: String
    public var summary: String
    public var body: String
    public var actions: [Action]
    public var urgency: Urgency
    /// Milliseconds; 0 never expires, -1 lets the server decide.
    public var expireTimeout: Int32
    /// A notification this one replaces on screen (0: none).
    public var replacesID: UInt32

    public init(
        appName: String, summary: String, body: String, actions: [Action] = [], urgency: Urgency = .normal,
        expireTimeout: Int32 = 0, replacesID: UInt32 = 0
    ) {
        self.appName = appName
        self.summary = summary
        self.body = body
        self.actions = actions
        self.urgency = urgency
        self.expireTimeout = expireTimeout
        self.replacesID = replacesID
    }
}

/// What the notification server reports about a notification it shows.
public enum NotificationEvent: Hashable, Sendable {
    /// The person pressed one of its buttons (`ActionInvoked`).
    case actionInvoked(id: UInt32, key: String)
    /// It left the screen (`NotificationClosed`), for `reason`.
    case closed(id: UInt32, reason: CloseReason)

    /// `NotificationClosed`'s reason codes.
    public enum CloseReason: UInt32, Sendable {
        case expired = 1, dismissed = 2, closedByCall = 3, undefined = 4
    }
}
