import Foundation
import TestSupport

/// The server of one data directory, through PostgreSQL's own programs:
/// initdb, pg_ctl, and psql as the superuser.
struct ServerControl: Sendable {
    let binaries: PostgresBinaries
    let account: ServerAccount
    /// The cluster's folder: the working directory of every program run.
    let directory: String
    let dataDirectory: String
    let socketDirectory: String
    let logFile: String

    /// How long pg_ctl waits for the server to be ready, or to be gone: generous,
    /// for a loaded CI machine running many tests at once.
    static let waitSeconds = 60

    func initialize() throws {
        let output = try account.run(
            binaries.initdb,
            [
                "--pgdata=\(dataDirectory)", "--username=\(account.superuser)",
                "--auth-local=trust", "--auth-host=scram-sha-256",
                "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions",
            ],
            in: directory)
        guard output.succeeded else {
            throw PostgresClusterError("initdb failed (status \(output.status)):\n\(output.stdout)\(output.stderr)")
        }
    }

    /// Starts the server and waits until it accepts connections.
    func start() throws {
        let output = try pgCtl(["start", "--log=\(logFile)"])
        guard output.succeeded else {
            throw PostgresClusterError(
                "PostgreSQL did not start: \(output.stdout)\(output.stderr)\n\(logTailForErrors())")
        }
    }

    /// Stops the server and waits until it is gone. `mode`: smart, fast or immediate.
    func stop(mode: String) throws {
        let output = try pgCtl(["stop", "--mode=\(mode)"])
        guard output.succeeded else {
            throw PostgresClusterError(
                "PostgreSQL did not stop (-m \(mode)): \(output.stdout)\(output.stderr)\n\(logTailForErrors())")
        }
    }

    /// Stops the server whatever it takes, and never throws: for clean-up, where
    /// a server left running would outlive the tests. Fast first, then
    /// immediate, then SIGKILL to the postmaster (whose children end when they
    /// see it gone).
    func stopForGood() {
        guard let pid = postmasterPID, Self.isAlive(pid) else { return }
        if (try? stop(mode: "fast")) != nil { return }
        if (try? stop(mode: "immediate")) != nil { return }
        guard let pid = postmasterPID, Self.isAlive(pid), isOurPostmaster(pid) else { return }
        kill(pid, SIGKILL)
        let deadline = ContinuousClock.now + .seconds(10)
        while Self.isAlive(pid), ContinuousClock.now < deadline { usleep(10_000) }
    }

    /// Runs `sql` through psql as the superuser over the socket; returns what
    /// psql printed: rows only, unaligned, `|` between columns (-A -t -q).
    ///
    /// The SQL goes in a file (psql -f): its statements then run one by one, as
    /// typed, so CREATE DATABASE and the like may come with others; the first
    /// error stops psql (ON_ERROR_STOP) and is thrown.
    func psql(_ sql: String, database: String, port: Int) throws -> String {
        let script = "\(directory)/psql-\(UUID().uuidString).sql"
        try sql.write(toFile: script, atomically: false, encoding: .utf8)
        defer { unlink(script) }
        let output = try ProgramRun.run(
            binaries.psql,
            [
                "--no-psqlrc", "--quiet", "--no-align", "--tuples-only", "--no-password",
                "--set=ON_ERROR_STOP=1",
                "--host=\(socketDirectory)", "--port=\(port)", "--username=\(account.superuser)",
                "--dbname=\(database)", "--file=\(script)",
            ],
            environment: ProgramEnvironment.forPostgres)
        guard output.succeeded else {
            throw PostgresClusterError("psql failed (status \(output.status)) on:\n\(sql)\n\(output.stderr)")
        }
        return output.stdout
    }

    /// The server log's size now, to read later only what came after.
    var logSize: Int {
        ((try? FileManager.default.attributesOfItem(atPath: logFile))?[.size] as? Int) ?? 0
    }

    /// The server log from `offset` on.
    func log(since offset: Int) -> String {
        guard let handle = FileHandle(forReadingAtPath: logFile) else { return "" }
        defer { try? handle.close() }
        try? handle.seek(toOffset: UInt64(offset))
        return String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
    }

    /// The last lines of the server log, which say why it failed.
    func logTailForErrors(lines: Int = 25) -> String {
        let tail = log(since: 0).split(separator: "\n", omittingEmptySubsequences: false).suffix(lines)
        return "--- last lines of \(logFile) ---\n" + tail.joined(separator: "\n")
    }

    private func pgCtl(_ arguments: [String]) throws -> ProgramOutput {
        try account.run(
            binaries.pgCtl, arguments + ["--pgdata=\(dataDirectory)", "--wait", "--timeout=\(Self.waitSeconds)"],
            in: directory)
    }

    /// The postmaster's process id, from the first line of postmaster.pid, while that file exists.
    private var postmasterPID: pid_t? {
        guard let text = try? String(contentsOfFile: "\(dataDirectory)/postmaster.pid", encoding: .utf8),
              let first = text.split(separator: "\n").first
        else { return nil }
        return pid_t(first.trimmingCharacters(in: .whitespaces))
    }

    /// Whether `pid` is still this data directory's postmaster, and not a later
    /// process that got its number: its command line names the data directory.
    private func isOurPostmaster(_ pid: pid_t) -> Bool {
        guard let commandLine = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        return String(decoding: commandLine, as: UTF8.self).contains(dataDirectory)
    }

    /// Alive, and not a zombie: in a container whose first process reaps
    /// nothing, a server that exited stays one.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards)
        else { return true }
        return stat[afterName.upperBound...].first != "Z"
    }
}
