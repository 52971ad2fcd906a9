import CSystemd
import Glibc

/// Tells the service manager how the daemon is doing (`sd_notify`).
///
/// Outside systemd (`NOTIFY_SOCKET` unset) every call is a cheap no-op, so the
/// daemon calls these unconditionally. The messages follow sd_notify(3):
/// `READY=1` once the daemon serves (and again after a reload), `STATUS=` a
/// one-line summary shown by `systemctl status`, `RELOADING=1` while the
/// configuration is re-read, `WATCHDOG=1` to prove it is alive, `STOPPING=1`
/// as soon as shutdown begins.
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

    /// A reload has begun (`systemctl reload`); `ready(status:)` ends it.
    /// systemd wants the monotonic time with it to tell reloads apart.
    public func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
        send("RELOADING=1\nMONOTONIC_USEC=\(microseconds)")
    }

    /// Tells systemd the daemon is alive (`WATCHDOG=1`).
    public func watchdogPing() {
        send("WATCHDOG=1")
    }

    /// How often systemd expects a watchdog ping (`WatchdogSec=` of the
    /// unit, passed as `WATCHDOG_USEC`), or nil when no watchdog is set.
    public var watchdogTimeout: Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(Int64(clamping: microseconds))
    }

    /// Sends one sd_notify message. Failures are ignored on purpose: the
    /// daemon's work does not depend on the manager hearing about it.
    public func send(_ message: String) {
        _ = sd_notify(0, message)
    }
}
