import Glibc
import Logging
import NIOCore
import NIOPosix
import SystemdSupport
import TodoProtocol
import UnixSignals

/// A todod that cannot start, kept up to say why.
///
/// A configuration todod cannot use needs a person, so todod exits 78, which
/// systemd does not retry. But under socket activation every client that
/// connects (todoctl's retries, a `watch`, a tmux status line) starts todod
/// again, until the service's start limit trips, the socket unit fails and
/// its socket file goes away: the user sees "no such file", and the cause
/// only in the journal. Instead, a socket-activated todod that cannot start
/// serves the socket systemd passed with this: every connection gets one
/// `server.badConfiguration` line naming the cause, in place of the greeting,
/// and `STATUS=` says it too, until todod is stopped or reloaded.
public struct StartupRefusal: Sendable {
    private let descriptor: Int32
    private let reason: String
    private let notifier: ServiceNotifier
    private let logger: Logger

    /// How the refusal ended.
    public enum Ending: Sendable {
        /// SIGTERM or SIGINT: todod exits 78, the cause still standing.
        case stopped
        /// SIGHUP (`systemctl --user reload todod`): todod exits 0, and the
        /// next connection starts it afresh, reading the file as it is now.
        case reloaded
    }

    /// `reason` says what is wrong and what to do, e.g. "…/todod.conf line 1:
    /// log-level must be one of …; fix it, then run `systemctl --user restart todod`".
    public init(socket descriptor: Int32, reason: String, notifier: ServiceNotifier, logger: Logger) {
        self.descriptor = descriptor
        self.reason = reason
        self.notifier = notifier
        self.logger = logger
    }

    /// Refuses every connection until a signal ends it.
    public func run() async throws -> Ending {
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint, .sighup)
        let line = MessageEncoding.error(id: nil, .badConfiguration(reason))
        let owner = getuid()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelInitializer(AcceptFailureLog.installer(logger: logger))
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                // Another user is told only that, as by a serving todod.
                PeerCredentials.of(channel).flatMap { peer in
                    channel.eventLoop.makeCompletedFuture {
                        let told = peer.uid == owner ? line : MessageEncoding.error(id: nil, .accessDenied(uid: peer.uid, owner: owner))
                        // Open until the client sends, or for 5 s: a busy
                        // client must get to read why, and descriptors are
                        // not short here, as they may be for a serving todod.
                        try channel.pipeline.syncOperations.addHandler(RefusalHandler(line: told, lingering: .seconds(5)))
                    }
                }.flatMapErrorThrowing { _ in channel.close(promise: nil) }
            }
            .withBoundSocket(descriptor).get()
        // Ready, as far as systemd is concerned: this start succeeded in
        // telling clients why nothing more can be done.
        notifier.ready(status: "refusing clients: todod will not start: \(reason)")
        // WatchdogSec= still holds: pinged from the loop that answers
        // clients, so a wedged refusal is restarted like a wedged todod.
        let pings = notifier.watchdogTimeout.map { timeout in
            listener.eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: TimeAmount(timeout / 4)) { _ in
                notifier.watchdogPing()
            }
        }
        defer { pings?.cancel() }
        logger.critical("todod will not start: \(reason). Until it is stopped, every client is told so.")
        var ending = Ending.stopped
        for await signal in signals {
            ending = signal == .sighup ? .reloaded : .stopped
            break
        }
        notifier.stopping(status: ending == .reloaded ? "reloading: the next connection starts todod afresh" : "stopping")
        try? await listener.close()
        return ending
    }
}
