import CSystemd

/// Tells the service manager how the daemon is doing (`sd_notify`).
///
/// Outside systemd (`NOTIFY_SOCKET` unset) every call is a cheap no-op, so the
/// daemon calls these unconditionally. The messages follow sd_notify(3):
/// `READY=1` once the daemon serves, `STATUS=` a one-line summary shown by
/// `systemctl status`, `STOPPING=1` as soon as shutdown begins.
public struct ServiceNotifier: Sendable {
    public init() {}

    /// The store is open and the socket is serving.
    public func ready(status: String) {
        send("READY=1\nSTATUS=\(status)")
    }

    /// A one-line summary of the daemon's state for `systemctl status`.
    public func status(_ status: String) {
        send("STATUS=\(status)")
    }

    /// Shutdown has begun; systemd stops sending new work and waits.
    public func stopping(status: String) {
        send("STOPPING=1\nSTATUS=\(status)")
    }

    /// Sends one sd_notify message. Failures are ignored on purpose: the
    /// daemon's work does not depend on the manager hearing about it.
    public func send(_ message: String) {
        _ = sd_notify(0, message)
    }
}
