import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// `todoctl sync …`: the CalDAV sync's set-up and status, carried out by
/// `todod-sync` (next to todoctl, or on PATH). todoctl itself never speaks
/// HTTPS, nor links Foundation for it: it stays a small client that starts
/// fast.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Syncs the list with a CalDAV collection (your phone, Thunderbird): add, status, now, password, rm.",
        discussion: """
            The commands:

              todoctl sync add URL --user NAME [--password-file FILE] [--ca-file FILE] [--interval SECONDS] [--replace]
                  asks for the password (or reads it from FILE), checks the collection takes to-dos,
                  keeps the password readable by you only, syncs, and starts todod-sync.service.
                  One collection per todod: while one is set up, add refuses; --replace switches
                  (from no agreed versions: nothing is deleted on either side).
              todoctl sync status [--json]   last sync, pending changes, conflicts, errors
              todoctl sync now               syncs now and shows the status; exits non-zero when it failed
              todoctl sync now --allow-deletions
                                             lets one sync delete open to-dos numbering more than 20 % (and
                                             at least 10) of those synced; without it, such a sync deletes
                                             nothing and asks (completed ones do not count)
              todoctl sync password          stores a new password once the server takes it (after a 401)
              todoctl sync rm                stops syncing (deletes nothing in the list or on the server)

            With --socket PATH (a second todod), each of these is that todod's own sync: its own \
            settings, password, state and service, todod-sync@….service.

            Exit codes: 0 done, 64 usage error, 65 refused (a wrong password, not a calendar, \
            a sync already set up, deletions held back), 69 the server or todod unreachable, 70 an answer that makes no sense, \
            74 a file of the sync's could not be written, 78 no sync set up (or its settings cannot be used).
            """)

    @ParentCommand var todoctl: Todoctl

    @Argument(parsing: .captureForPassthrough, help: "add, status, now, password or rm, and their arguments.")
    var arguments: [String] = []

    func run() throws {
        // `todoctl sync --help` is `todoctl help sync`, not the help of
        // todod-sync's default command.
        if arguments.count == 1, ["-h", "--help", "help"].contains(arguments[0]) {
            print(Todoctl.helpMessage(for: Self.self))
            return
        }
        let program = Self.syncProgram()
        // "todoctl sync" as its name: it words its messages for the command typed.
        let argv = ["todoctl sync"] + (arguments.isEmpty ? ["status"] : arguments) + ["--socket", todoctl.connection.socket]
        let cArguments = argv.map { strdup($0) } + [nil]
        execv(program, cArguments)
        ClientFailure.printError(
            "todoctl: cannot run \(program): \(String(cString: strerror(errno))) (is todod-sync installed? scripts/install and the Debian package put it beside todoctl)")
        throw ExitCode(ClientFailure.unreachable)
    }

    /// `todod-sync` beside this todoctl, else the first on PATH.
    static func syncProgram() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let own = length > 0 ? String(cString: Array(buffer[0..<length]) + [0]) : CommandLine.arguments[0]
        let directory = own.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let beside = directory + "/todod-sync"
        if access(beside, X_OK) == 0 { return beside }
        let path = getenv("PATH").map { String(cString: $0) } ?? ""
        for entry in path.split(separator: ":") where access("\(entry)/todod-sync", X_OK) == 0 {
            return "\(entry)/todod-sync"
        }
        return beside
    }
}
