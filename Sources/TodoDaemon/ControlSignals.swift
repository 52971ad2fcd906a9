import ServiceLifecycle
import UnixSignals

/// The signals todod answers besides SIGTERM and SIGINT (which stop it):
/// SIGHUP re-reads the configuration (`systemctl --user reload todod`), and,
/// only with `todod --test-hooks`, SIGUSR2 wedges the host so tests can see
/// the watchdog restart todod.
public struct ControlSignals: Service {
    private let reload: @Sendable () async -> Void
    private let wedge: (@Sendable () async -> Void)?

    public init(reload: @escaping @Sendable () async -> Void, wedge: (@Sendable () async -> Void)? = nil) {
        self.reload = reload
        self.wedge = wedge
    }

    public func run() async {
        let signals = await UnixSignalsSequence(trapping: wedge == nil ? [.sighup] : [.sighup, .sigusr2])
        await cancelWhenGracefulShutdown { [reload, wedge] in
            for await signal in signals {
                if signal == .sighup {
                    await reload()
                } else if signal == .sigusr2, let wedge {
                    Task { await wedge() }
                }
            }
        }
    }
}
