import ServiceLifecycle
import SystemdSupport

/// Pings systemd's watchdog (`WatchdogSec=` in todod.service) from where
/// todod proves it is alive: each ping follows a call into the state owner,
/// the loop that serves every request and commits every edit. If the host
/// is wedged, the pings stop and systemd restarts todod.
public struct Watchdog: Service {
    private let host: ListOwner
    private let notifier: ServiceNotifier
    private let interval: Duration

    /// Pings four times per `timeout`, so one slow turn of the host (a large
    /// transaction) does not cost a restart.
    public init(host: ListOwner, notifier: ServiceNotifier, timeout: Duration) {
        self.host = host
        self.notifier = notifier
        self.interval = timeout / 4
    }

    /// Ends (without an error, which would fail the service group) when
    /// todod shuts down.
    public func run() async {
        await cancelWhenGracefulShutdown { [host, notifier, interval] in
            while !Task.isCancelled {
                await host.heartbeat()
                notifier.watchdogPing()
                try? await Task.sleep(for: interval)
            }
        }
    }
}
