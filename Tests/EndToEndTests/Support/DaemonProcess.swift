import Foundation

/// A real `todod` on a private socket and data directory.
final class DaemonProcess {
    let directory: URL
    let socket: String
    let dataDirectory: String
    private var child: ChildProcess?
    private(set) var log = OutputCollector()
    /// Extra todod flags, e.g. a short `--reminder-hours`.
    var arguments: [String] = []
    /// The soft and hard `RLIMIT_NOFILE` to start todod with (`ulimit -n`), if not inherited.
    var fileDescriptorLimit: Int?
    /// Extra environment, e.g. `PGPASSFILE` for a shared store.
    var environment: [String: String] = [:]

    /// A fresh directory for one test's daemon (short, so the socket path fits).
    /// With `socketSubdirectory`, the socket goes in a directory todod must create.
    /// It is private (0700) whatever the umask: todod refuses a socket directory
    /// other users can write. `dataDirectory` overrides where the data goes.
    init(socketSubdirectory: String? = nil, dataDirectory: String? = nil) throws {
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("todod-e2e-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        self.directory = directory
        let socketDirectory = socketSubdirectory.map { directory.appendingPathComponent($0) } ?? directory
        socket = socketDirectory.appendingPathComponent("todod.sock").path
        self.dataDirectory = dataDirectory ?? directory.appendingPathComponent("data").path
    }

    /// The running todod's process id.
    var pid: pid_t? { child?.pid }

    deinit {
        child = nil  // kills and reaps a daemon still running
        log.processStarted()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts todod and waits until it accepts connections.
    func start() async throws {
        try await start(onceLogShows: nil) {}
    }

    /// Starts todod and waits until it accepts connections; once its log
    /// shows `text`, runs `action` (once). For what todod waits for while
    /// it starts: a store server started when todod says it is waiting,
    /// not after a while that a slow machine might outlast.
    func start(onceLogShows text: String?, then action: () throws -> Void) async throws {
        let child = try spawn()
        var pending = text
        let deadline = ContinuousClock.now + .seconds(30)
        // Looked at once more after the deadline: a test's task may wake
        // long after it asked to (other tests' blocking work holds the
        // threads), and todod should not be blamed for that.
        var lastLook = false
        while !lastLook {
            lastLook = ContinuousClock.now >= deadline
            if let awaited = pending, log.text.contains(awaited) {
                pending = nil
                try action()
            }
            if let connection = try? RawConnection(path: socket) {
                connection.close()
                return
            }
            if let status = child.exitStatus {
                await log.waitForEndOfFile()
                throw TestFailure("todod exited during start-up with status \(status):\n\(log.text)")
            }
            if !lastLook { try await Task.sleep(for: .milliseconds(20)) }
        }
        throw TestFailure("todod did not accept connections within 30 s:\n\(log.text)")
    }

    /// Starts todod expecting it to refuse to start, and returns its exit
    /// status; fails if it serves instead.
    func startExpectingRefusal() async throws -> Int32 {
        let child = try spawn()
        let deadline = ContinuousClock.now + .seconds(30)
        var lastLook = false  // as in `start`
        while !lastLook {
            lastLook = ContinuousClock.now >= deadline
            if let status = child.exitStatus {
                await log.waitForEndOfFile()
                return status
            }
            if let connection = try? RawConnection(path: socket) {
                connection.close()
                throw TestFailure("todod started serving instead of refusing:\n\(log.text)")
            }
            if !lastLook { try await Task.sleep(for: .milliseconds(20)) }
        }
        throw TestFailure("todod neither served nor exited within 30 s:\n\(log.text)")
    }

    private func spawn() throws -> ChildProcess {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "NOTIFY_SOCKET")
        environment.removeValue(forKey: "LISTEN_FDS")
        environment.merge(self.environment) { $1 }
        log.processStarted()
        log = OutputCollector()
        var command = [Binaries.todod.path]
        if let fileDescriptorLimit {
            command = ["/bin/sh", "-c", "ulimit -n \(fileDescriptorLimit) && exec \"$0\" \"$@\""] + command
        }
        let child = try ChildProcess(
            URL(fileURLWithPath: command[0]),
            Array(command.dropFirst())
                + ["--socket", socket, "--data-dir", dataDirectory, "--config", "/dev/null", "--log-level", "debug"] + arguments,
            environment: environment,
            stdout: log,
            stderr: log
        )
        self.child = child
        return child
    }

    /// Kills todod with SIGKILL (no shutdown at all) and waits until it is gone.
    func kill() async throws {
        guard let child else { throw TestFailure("todod was not started") }
        child.signal(SIGKILL)
        guard await child.waitForExit(timeout: .seconds(30)) != nil else {
            throw TestFailure("todod did not die of SIGKILL within 30 s")
        }
        // A killed daemon leaves its socket file; the next start replaces it.
    }

    /// Sends SIGTERM and returns the exit status.
    func terminate() async throws -> Int32 {
        guard let child else { throw TestFailure("todod was not started") }
        child.signal(SIGTERM)
        guard let status = await child.waitForExit(timeout: .seconds(30)) else {
            throw TestFailure("todod did not exit within 30 s of SIGTERM:\n\(log.text)")
        }
        return status
    }
}
