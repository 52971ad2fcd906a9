import ArgumentParser
import FoundationEssentials
import Glibc
import TodoClient
import TodoProtocol

/// Runs a command's body and turns what went wrong into one line on stderr
/// and a documented exit code, so scripts can tell "no such item" from
/// "daemon not running".
enum ClientFailure {
    static let refusedInput: Int32 = 65  // EX_DATAERR
    static let notFound: Int32 = 66  // EX_NOINPUT
    static let unreachable: Int32 = 69  // EX_UNAVAILABLE
    static let protocolFailure: Int32 = 70  // EX_SOFTWARE
    static let storageFailure: Int32 = 74  // EX_IOERR
    static let timedOut: Int32 = 75  // EX_TEMPFAIL
    static let badConfiguration: Int32 = 78  // EX_CONFIG: todod will not start until a person fixes something

    static func exitCode(for error: RPCError) -> Int32 {
        switch error.code {
        case RPCError.Code.invalidParams, RPCError.Code.nothingToUndo: refusedInput
        case RPCError.Code.notFound: notFound
        case RPCError.Code.storageFailure: storageFailure
        case RPCError.Code.storeUnavailable: unreachable
        case RPCError.Code.badConfiguration: badConfiguration
        default: protocolFailure
        }
    }

    /// The line printed when todod cannot be reached: what failed, which
    /// socket was tried, and how to start the daemon.
    static func unreachableHint(socketPath: String, reason: String) -> String {
        "todoctl: cannot reach todod at \(socketPath) (\(reason)). "
            + "Start it with `systemctl --user start todod.socket`, or run `todod` in another terminal."
    }

    /// Prints why `error` happened and returns the exit code to leave with.
    static func report(_ error: any Error) -> ExitCode {
        switch error {
        case ClientError.daemonUnreachable(let path, let reason):
            printError(unreachableHint(socketPath: path, reason: reason))
            return ExitCode(unreachable)
        case ClientError.untrustedServer:
            printError("todoctl: \(error)")
            return ExitCode(unreachable)
        case ClientError.refused(let rpcError):
            printError("todoctl: \(rpcError.message)")
            return ExitCode(exitCode(for: rpcError))
        case ClientError.timedOut:
            printError("todoctl: \(error)")
            return ExitCode(timedOut)
        case ClientError.requestTooLong, is TitleTooLong:
            // Refused before sending, as todod refuses input it will not take.
            printError("todoctl: \(error)")
            return ExitCode(refusedInput)
        case let error as ClientError:
            printError("todoctl: \(error)")
            return ExitCode(protocolFailure)
        default:
            printError("todoctl: \(error)")
            return ExitCode(protocolFailure)
        }
    }

    static func printError(_ line: String) {
        StandardStreams.write(line + "\n", to: STDERR_FILENO)
    }
}

/// Connects, runs `body`, and maps failures to exit codes.
func withDaemon<Result: Sendable>(
    _ options: ConnectionOptions,
    _ body: @Sendable (any DaemonCalls) async throws -> Result
) async throws -> Result {
    // A restart of todod (a new binary, `systemctl restart`) must not cost
    // the user an edit: when todod stopped before answering anything on this
    // connection, nothing was carried out, so the command is sent again to
    // the next todod (under socket activation the new connection waits in
    // the socket's backlog until it is up; without systemd, connecting is
    // retried briefly).
    var attempt = 0
    while true {
        attempt += 1
        do {
            // A command that asks and exits needs no event loop: see OneShotConnection.
            return try await OneShotConnection.with(socketPath: options.socket, body)
        } catch let exit as ExitCode {
            throw exit
        } catch ClientError.stoppedBeforeAnswering where attempt < 5 {
            continue
        } catch ClientError.daemonUnreachable where attempt > 1 && attempt < 50 {
            try await Task.sleep(for: .milliseconds(100))  // the restarted todod is not listening yet
        } catch {
            throw ClientFailure.report(error)
        }
    }
}
