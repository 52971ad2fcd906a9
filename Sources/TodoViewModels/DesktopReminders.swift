import FoundationEssentials
import TodoModel

/// What the person did with a reminder on the desktop: snoozed it until a
/// moment, or dismissed it. Stored, so a snooze outlives a restart and a
/// dismissed reminder does not come back.
public struct DesktopReminderState: Hashable, Sendable {
    public var snoozedUntil: Date?
    public var dismissed: Bool

    public init(snoozedUntil: Date? = nil, dismissed: Bool = false) {
        self.snoozedUntil = snoozedUntil
        self.dismissed = dismissed
    }
}

/// How reminders reach the desktop (todod.conf): whether at all, and the
/// quiet hours in which they wait.
public struct DesktopReminderSettings: Hashable, Sendable {
    public var enabled: Bool
    public var quietHours: QuietHours?

    public init(enabled: Bool = true, quietHours: QuietHours? = nil) {
        self.enabled = enabled
        self.quietHours = quietHours
    }
}

/// Decides which of the raised reminders belong on the desktop at a moment:
/// none when turned off or in quiet hours; else every active one that is
/// neither dismissed nor snoozed past that moment. A pure value with no
/// clock of its own: the view model asks it at its last tick, so the tick
/// that crosses a snooze's end or a quiet-hours boundary sees the change.
struct DesktopReminders {
    var settings: DesktopReminderSettings
    private(set) var states: [ReminderKey: DesktopReminderState]
    /// At most this many are listed; a desktop with more is no help.
    static let listed = 20

    init(settings: DesktopReminderSettings, states: [ReminderKey: DesktopReminderState]) {
        self.settings = settings
        self.states = states
    }

    func isQuiet(at date: Date, timeZone: TimeZone) -> Bool {
        settings.quietHours?.contains(date, in: timeZone) ?? false
    }

    /// The keys of `active` (raised reminders, in order) to show at `date`.
    func showing(_ active: [ReminderKey], at date: Date, timeZone: TimeZone) -> [ReminderKey] {
        guard settings.enabled, !isQuiet(at: date, timeZone: timeZone) else { return [] }
        return Array(
            active.lazy.filter { key in
                guard let state = states[key] else { return true }
                if state.dismissed { return false }
                return state.snoozedUntil.map { $0 <= date } ?? true
            }.prefix(Self.listed))
    }

    /// The first instant after `date` at which `showing` may answer
    /// differently without any command: a snooze ends, or quiet hours begin or end.
    func nextChange(after date: Date, timeZone: TimeZone) -> Date? {
        guard settings.enabled else { return nil }
        var next = settings.quietHours?.nextBoundary(after: date, in: timeZone)
        for state in states.values where !state.dismissed {
            if let until = state.snoozedUntil, until > date, next.map({ until < $0 }) ?? true { next = until }
        }
        return next
    }

    /// Snoozing also takes back an earlier dismissal: the person asked for it again.
    /// Sets a reminder's state as another instance stored it.
    mutating func restore(_ key: ReminderKey, _ state: DesktopReminderState) {
        states[key] = state
    }

    mutating func snooze(_ key: ReminderKey, until date: Date) -> DesktopReminderState {
        let state = DesktopReminderState(snoozedUntil: date, dismissed: false)
        states[key] = state
        return state
    }

    mutating func dismiss(_ key: ReminderKey) -> DesktopReminderState {
        let state = DesktopReminderState(snoozedUntil: nil, dismissed: true)
        states[key] = state
        return state
    }
}
