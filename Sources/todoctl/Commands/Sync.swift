import ArgumentParser
import Foundation

/// `todoctl sync …`: the CalDAV sync's set-up and status, carried out by
/// `todod-sync` (next to todoctl, or on PATH). todoctl itself never speaks
/// HTTPS: it stays a small client that starts fast.
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
        var argv = [program] + (arguments.isEmpty ? ["status"] : arguments)
        argv += ["--socket", todoctl.connection.socket]
        let cArguments = argv.map { strdup($0) } + [nil]
        execv(program, cArguments)
        throw ValidationError("cannot run \(program): \(String(cString: strerror(errno))) (is todod-sync installed? scripts/install puts it beside todoctl)")
    }

    /// `todod-sync` beside this todoctl, else the first on PATH.
    static func syncProgram() -> String {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let beside = (own as NSString).deletingLastPathComponent + "/todod-sync"
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/todod-sync"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return beside
    }
}
