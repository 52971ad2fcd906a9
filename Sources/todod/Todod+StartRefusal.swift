import ArgumentParser
import Logging
import SystemdSupport
import TodoDaemon

extension Todod {
    /// Ends a start that needs a person, not a retry: a configuration todod
    /// cannot use, a store that refuses it. The exit status is 78
    /// (EX_CONFIG), which todod.service does not restart.
    ///
    /// Run by hand, todod says so with `byHand` (the cause on stderr or in
    /// the journal) and exits at once. Started by todod.socket, it first
    /// stays up and tells every client why (`StartupRefusal`, which logs
    /// `reason` once): exiting at once would let the next connection start
    /// it again, until systemd's start limit failed the socket and took its
    /// file away. Stopped, it then exits 78; told to reload, it exits 0, and
    /// the next connection starts todod afresh.
    static func refuseToStart(
        _ reason: String, notifier: ServiceNotifier, logger: Logger, byHand: () -> Void
    ) async throws -> Never {
        guard let descriptor = try? SocketActivation.passedUnixSocket() else {
            byHand()
            throw ExitCode(78)
        }
        let refusal = StartupRefusal(socket: descriptor, reason: reason, notifier: notifier, logger: logger)
        let ending: StartupRefusal.Ending
        do {
            ending = try await refusal.run()
        } catch {
            // Not even the refusal can serve: still a start that needs a person.
            logger.critical(
                "todod will not start: \(reason); and it cannot serve the socket systemd passed to say so", metadata: ["error": "\(error)"])
            throw ExitCode(78)
        }
        switch ending {
        case .stopped:
            throw ExitCode(78)
        case .reloaded:
            logger.notice("reloading: the next connection starts todod afresh, with todod.conf as it is now")
            throw ExitCode.success
        }
    }
}
