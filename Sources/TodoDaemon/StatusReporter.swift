import Synchronization
import SystemdSupport

/// Keeps systemd's status line (`systemctl status todod`) current:
/// "42 items, 3 clients, 2 subscriptions".
///
/// Anything that changes a count calls `changed()`; the line is sent at
/// most every `interval` (a burst of edits or connections costs one
/// message), and only when its text differs from the last one sent.
public final class StatusReporter: Sendable {
    /// The counts, or nil once todod is stopping (nothing more is sent).
    public typealias Counts = @Sendable () async -> (items: Int, clients: Int, subscriptions: Int, stale: Bool, notices: Int)?

    private let notifier: ServiceNotifier
    private let interval: Duration
    private let state = Mutex(State())
    private let counts: Mutex<Counts?> = Mutex(nil)

    private struct State {
        var scheduled = false
        var lastSent = ""
    }

    public init(notifier: ServiceNotifier, interval: Duration = .milliseconds(250)) {
        self.notifier = notifier
        self.interval = interval
    }

    /// Where the counts come from (the host, which is built after this
    /// reporter because it reports to it).
    public func countFrom(_ counts: @escaping Counts) {
        self.counts.withLock { $0 = counts }
    }

    /// `stale`: a shared store is out of reach, so edits are refused and
    /// what is shown may be behind what other instances stored.
    /// `notices`: how many things the operator should know, which
    /// `todoctl status` says in full (a line here has no room for them).
    public static func text(items: Int, clients: Int, subscriptions: Int, stale: Bool = false, notices: Int = 0) -> String {
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        var text = "\(counted(items, "item")), \(counted(clients, "client")), \(counted(subscriptions, "subscription"))"
        if stale { text += "; store unreachable: serving reads from memory, refusing edits" }
        if notices > 0 { text += "; \(counted(notices, "notice")) to read: todoctl status" }
        return text
    }

    /// The current line, now (for `READY=1`).
    public func currentText() async -> String {
        await line() ?? "stopping"
    }

    /// The current line; nil once todod is stopping (there is nothing to count).
    private func line() async -> String? {
        guard let counts = counts.withLock({ $0 }) else { return "starting" }
        guard let now = await counts() else { return nil }
        return Self.text(items: now.items, clients: now.clients, subscriptions: now.subscriptions, stale: now.stale, notices: now.notices)
    }

    /// Remembers `text` as sent (it went out with `READY=1`).
    public func sent(_ text: String) {
        state.withLock { $0.lastSent = text }
    }

    /// A count may have changed: send the line within `interval`.
    public func changed() {
        let schedule = state.withLock { state -> Bool in
            guard !state.scheduled else { return false }
            state.scheduled = true
            return true
        }
        guard schedule else { return }
        Task {
            try? await Task.sleep(for: interval)
            state.withLock { $0.scheduled = false }
            // Stopping: systemd shows the stop itself.
            guard let text = await line() else { return }
            let fresh = state.withLock { state -> Bool in
                guard state.lastSent != text else { return false }
                state.lastSent = text
                return true
            }
            if fresh { notifier.status(text) }
        }
    }
}
