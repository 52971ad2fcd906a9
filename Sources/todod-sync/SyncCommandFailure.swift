import ArgumentParser
import CalDAV
import Foundation
import TodoClient
import TodoSyncService

/// A command that could not do its work, said as one line for the person
/// and an exit code scripts can tell apart: the same codes todoctl
/// documents (README, *Exit codes*), since people run these as `todoctl
/// sync …`. A usage error (64, with the usage) is only ever a command line
/// that cannot be read; a server that is down, a wrong password or a URL
/// that is no calendar are not.
struct SyncCommandFailure: Error, CustomStringConvertible {
    static let usage: Int32 = 64  // EX_USAGE
    static let refused: Int32 = 65  // EX_DATAERR: the server or the set-up said no; trying again as it is will not help
    static let unreachable: Int32 = 69  // EX_UNAVAILABLE: the server or todod could not be reached
    static let software: Int32 = 70  // EX_SOFTWARE: an answer that makes no sense
    static let storage: Int32 = 74  // EX_IOERR: a file of the sync's could not be written
    static let configuration: Int32 = 78  // EX_CONFIG: the stored set-up cannot be used

    var description: String
    var code: Int32

    init(_ description: String, code: Int32) {
        self.description = description
        self.code = code
    }

    /// What went wrong with the server or todod, with its exit code.
    init(_ error: any Error) {
        switch error {
        case let failure as SyncCommandFailure:
            self = failure
        case ClientError.daemonUnreachable(let path, let reason):
            self.init(
                "cannot reach todod at \(path) (\(reason)); start it with `systemctl --user start todod.socket`, or run `todod`",
                code: Self.unreachable)
        case let error as SyncSetupError:
            self.init(error.description, code: Self.configuration)
        case CalDAVError.invalidAccount(let reason):
            // The stored settings' (a CA file gone since): `add` words a
            // URL typed now as a usage error itself.
            self.init(reason, code: Self.configuration)
        default:
            self.init(SyncService.describe(error), kind: SyncService.kind(of: error))
        }
    }

    init(_ description: String, kind: SyncStatus.ErrorKind) {
        switch kind {
        case .unreachable: self.init(description, code: Self.unreachable)
        case .refused, .held: self.init(description, code: Self.refused)
        case .failed: self.init(description, code: Self.software)
        }
    }
}

extension TododSync {
    /// The name the person typed: `todoctl sync` when todoctl ran this
    /// (it passes that as the program's name), else `todod-sync`.
    static var spokenName: String {
        let name = CommandLine.arguments.first ?? ""
        return name.hasPrefix("todoctl") ? "todoctl sync" : "todod-sync"
    }

    /// Runs the command line; a `SyncCommandFailure` is one line on
    /// stderr and its exit code, without the usage that ArgumentParser
    /// adds to errors it does not know.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let failure as SyncCommandFailure {
            FileHandle.standardError.write(Data("\(spokenName): \(failure.description)\n".utf8))
            Foundation.exit(failure.code)
        } catch {
            exit(withError: error)
        }
    }
}
