import DesktopNotifications
import FoundationEssentials
import Glibc
import TodoClient
import TodoProtocol
import TodoViewState

/// `todoctl notify`'s memory of the desktop: which of todod's desktop
/// reminders are on screen under which notification id, and what a button
/// or a close means. It decides nothing about reminders (todod's view model
/// does: `desktopReminders`); it keeps the screen equal to that list and
/// turns the person's answers into the protocol commands any client sends.
actor ReminderDesk {
    struct Key: Hashable {
        var id: Int64
        var condition: ReminderAlert.Condition
        init(_ reminder: DesktopReminder) {
            id = reminder.id
            condition = reminder.condition
        }
    }

    /// The buttons, by the key `ActionInvoked` reports.
    static let actions = [
        DesktopNotification.Action(key: "done", label: "Done"),
        DesktopNotification.Action(key: "snooze", label: "Snooze 1 h"),
        DesktopNotification.Action(key: "tomorrow", label: "Tomorrow"),
    ]

    private let notifier: DesktopNotifier
    private let log: @Sendable (String) -> Void
    private var daemon: TodoConnection?
    /// What todod says belongs on the desktop now.
    private var desired: [Key: DesktopReminder] = [:]
    private var order: [Key] = []
    /// On screen: the notification id, and the reminder as it was shown.
    private var shown: [Key: (id: UInt32, reminder: DesktopReminder)] = [:]
    private var keyOf: [UInt32: Key] = [:]
    /// Being shown (a `Notify` call is under way).
    private var showing: Set<Key> = []
    /// Answered on screen (a button, or closed by the person): not shown
    /// again until todod stops listing it, which the answer leads to.
    private var answered: Set<Key> = []
    /// Notifications whose close is ours or follows a button: not a dismissal.
    private var expectedCloses: Set<UInt32> = []

    init(notifier: DesktopNotifier, log: @escaping @Sendable (String) -> Void) {
        self.notifier = notifier
        self.log = log
    }

    func attach(_ daemon: TodoConnection?) { self.daemon = daemon }

    /// todod's new list: closes what left it, shows (or re-words) the rest.
    func update(_ reminders: [DesktopReminder]) async {
        order = reminders.map(Key.init)
        desired = Dictionary(reminders.map { (Key($0), $0) }, uniquingKeysWith: { $1 })
        answered.formIntersection(desired.keys)
        for (key, entry) in shown where desired[key] == nil {
            expectedCloses.insert(entry.id)
            notifier.close(entry.id)
            shown[key] = nil
        }
        await showMissing()
    }

    /// Shows every listed reminder not on screen, and re-words changed ones.
    func showMissing() async {
        for key in order where !showing.contains(key) && !answered.contains(key) {
            guard let reminder = desired[key] else { continue }
            if let entry = shown[key], entry.reminder == reminder { continue }
            showing.insert(key)
            let id = await notifier.show(Self.notification(for: reminder, replacing: shown[key]?.id ?? 0))
            showing.remove(key)
            guard let id else { continue }
            keyOf[id] = key
            if desired[key] == nil || answered.contains(key) {
                expectedCloses.insert(id)
                notifier.close(id)
            } else {
                shown[key] = (id, reminder)
            }
        }
    }

    func handle(_ event: DesktopNotifier.Event) async {
        switch event {
        case .connected(let server):
            // A new bus: nothing from before is on screen.
            shown = [:]
            keyOf = [:]
            if let server { log("showing reminders through \(server)") }
            await showMissing()
        case .notification(.actionInvoked(let id, let action)):
            guard let key = keyOf[id], let reminder = desired[key] ?? shown[key]?.reminder else { return }
            answered.insert(key)
            expectedCloses.insert(id)
            await carryOut(action, on: key, title: reminder.summary)
        case .notification(.closed(let id, let reason)):
            guard let key = keyOf.removeValue(forKey: id) else { return }
            if shown[key]?.id == id { shown[key] = nil }
            if expectedCloses.remove(id) != nil || reason == .closedByCall { return }
            answered.insert(key)
            await send("dismissed", key, title: desired[key]?.summary) { daemon in
                _ = try await daemon.call(DismissReminder.self, .init(id: key.id, condition: key.condition))
            }
        }
    }

    /// A button's command, sent as any client sends it: done is `todo.setDone`
    /// (undoable, and every watcher sees it); the snoozes are `reminder.snooze`.
    private func carryOut(_ action: String, on key: Key, title: String) async {
        switch action {
        case "done":
            await send("done", key, title: title) { daemon in
                _ = try await daemon.call(SetTodoDone.self, .init(id: key.id, done: true))
            }
        case "snooze":
            await send("snoozed for an hour", key, title: title) { daemon in
                _ = try await daemon.call(SnoozeReminder.self, .init(id: key.id, condition: key.condition, minutes: 60))
            }
        case "tomorrow":
            await send("snoozed until tomorrow 09:00", key, title: title) { daemon in
                _ = try await daemon.call(SnoozeReminder.self, .init(id: key.id, condition: key.condition, until: "tomorrow 9am"))
            }
        default:
            answered.remove(key)  // a click on the body: the reminder stays
        }
    }

    private func send(_ what: String, _ key: Key, title: String?, _ call: @Sendable (TodoConnection) async throws -> Void) async {
        guard let daemon else {
            log("cannot reach todod: \(title.map { "“\($0)”" } ?? "item \(key.id)") not \(what)")
            answered.remove(key)
            return
        }
        do {
            try await call(daemon)
            log("\(what): “\(title ?? String(key.id))” (\(key.condition.rawValue))")
        } catch {
            log("todod refused (\(error)): \(title.map { "“\($0)”" } ?? "item \(key.id)") not \(what)")
            answered.remove(key)
        }
    }

    static func notification(for reminder: DesktopReminder, replacing id: UInt32) -> DesktopNotification {
        let urgency: DesktopNotification.Urgency =
            switch reminder.urgency {
            case .low: .low
            case .normal: .normal
            case .critical: .critical
            }
        // Never expires: a reminder stays until answered, as todod keeps it.
        return DesktopNotification(
            appName: "todod", summary: reminder.summary, body: reminder.body, actions: actions, urgency: urgency,
            expireTimeout: 0, replacesID: id)
    }
}
