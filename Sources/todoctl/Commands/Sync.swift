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
        abstract: "Syncs the list with a CalDAV collection (your phone, Thunderbird): add, status, now, rm.",
        discussion: """
            todoctl sync add URL --user NAME [--password-file FILE] [--ca-file FILE] [--interval SECONDS]
                asks for the password (or reads it from FILE), checks the collection takes to-dos,
                keeps the password readable by you only, syncs, and starts todod-sync.service.
            todoctl sync status [--json]   last sync, pending changes, conflicts, errors
            todoctl sync now               syncs now and shows the status
            todoctl sync rm                stops syncing (deletes nothing in the list or on the server)
            """)

    @ParentCommand var todoctl: Todoctl

    @Argument(parsing: .captureForPassthrough, help: "add, status, now or rm, and their arguments.")
    var arguments: [String] = []

    func run() throws {
        let program = Self.syncProgram()
        let argv = [program] + (arguments.isEmpty ? ["status"] : arguments) + ["--socket", todoctl.connection.socket]
        let cArguments = argv.map { strdup($0) } + [nil]
        execv(program, cArguments)
        throw ValidationError("cannot run \(program): \(String(cString: strerror(errno))) (is todod-sync installed? scripts/install puts it beside todoctl)")
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
