import ArgumentParser
import CanonicalJSON
import DesktopNotifications
import FoundationEssentials
import Glibc
import Synchronization
import TodoClient
import TodoProtocol
import TodoViewState

/// `todoctl notify`: the desktop as a view of todod. It subscribes to the
/// `desktopReminders` property of the view `main` and keeps one
/// notification per listed reminder on screen; its buttons send the
/// protocol commands any client sends. Runs until stopped (the user unit
/// `todod-notify.service` runs it), riding out restarts of todod and of the
/// session bus.
struct Notify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Show todod's reminders as desktop notifications, until stopped.",
        discussion: """
            Each reminder todod lists for the desktop (the view property desktopReminders: raised, not \
            snoozed or dismissed, outside quiet hours) becomes a notification on the session bus, with the \
            buttons Done (todo.setDone), Snooze 1 h and Tomorrow (reminder.snooze); closing one dismisses it \
            (reminder.dismiss). Without a session bus or a notification server it says so once on stderr and \
            waits for one. Usually run by the user unit todod-notify.service.
            """)

    @ParentCommand var todoctl: Todoctl

    func run() async throws {
        let log: @Sendable (String) -> Void = { line in
            StandardStreams.write("todoctl notify: \(line)\n", to: STDERR_FILENO)
        }
        let notifier = DesktopNotifier(log: log)
        let desk = ReminderDesk(notifier: notifier, log: log)
        Task {
            for await event in notifier.events { await desk.handle(event) }
        }
        Task {
            // Reminders a missing server could not show are tried again.
            while true {
                try await Task.sleep(for: .seconds(5))
                await desk.showMissing()
            }
        }
        let follower = DaemonFollower(socketPath: todoctl.connection.socket, retryInterval: .seconds(1))
        try await follower.run(
            isTodoGone: { _ in true },
            onEvent: { event in
                switch event {
                case .lost(let error?): log("todod is not answering (\(error)); trying again every second")
                case .lost(nil): log("todod stopped; trying again every second")
                case .refused(let refusal): log("todod will not start (\(refusal.message)); trying again every second")
                case .reached: log("todod reached again")
                }
            },
            session: { daemon in
                await desk.attach(daemon)
                do {
                    try await Self.follow(daemon, desk: desk)
                } catch {
                    await desk.attach(nil)
                    throw error
                }
                await desk.attach(nil)
            })
    }

    /// Subscribes to `desktopReminders` and hands each new list to the desk
    /// until the connection ends.
    private static func follow(_ daemon: TodoConnection, desk: ReminderDesk) async throws {
        let property = "desktopReminders"
        let reply = try await daemon.call(
            SubscribeListView.self, SubscribeListView.Params(view: "main", properties: [property]))
        if let value = reply.state?.properties[property] {
            await desk.update(try JSONValueDecoder.decode([DesktopReminder].self, from: value))
        }
        for await message in daemon.notifications {
            guard case .notification(let method, let payload) = message else { continue }
            switch method {
            case ListViewChanged.name:
                let change = try payload.params(ListViewChanged.Params.self)
                guard change.subscription == reply.subscription, let value = change.body.properties[property] else { continue }
                await desk.update(try JSONValueDecoder.decode([DesktopReminder].self, from: value))
            case ServerShutdown.name:
                return
            default:
                continue
            }
        }
    }
}
