import Foundation
import Glibc

/// A server a benchmark starts as a child process on a socket in a fresh
/// temporary directory: a real todod (release build, from `TodoBinaries`)
/// with its own data directory, or any other server.
public final class ServerProcess {
    public let directory: URL
    public let socket: String
    /// Just before the process was spawned: start-up is timed from here.
    public private(set) var spawnedAt = ContinuousClock.now
    private let process = Process()
    private let name: String
    private var launched = false

    /// A real todod with a fresh data directory under `parent`, or with
    /// `dataDirectory` when given (which then outlives this server, so a later
    /// todod can start on what this one stored).
    public static func todod(in parent: URL, arguments: [String] = [], dataDirectory: URL? = nil) throws -> ServerProcess {
        try ServerProcess(in: parent, executable: TodoBinaries.executable("todod")) { directory, socket in
            let data = dataDirectory ?? directory.appendingPathComponent("data")
            return ["--socket", socket, "--data-dir", data.path, "--config", "/dev/null", "--log-level", "warning"] + arguments
        }
    }

    /// Starts `executable` with the arguments `arguments` makes from a fresh
    /// directory under `parent` and a socket path in it, and waits until the
    /// socket accepts (checking every millisecond, so a start-up time taken
    /// from `spawnedAt` is not rounded up by the wait).
    public init(in parent: URL, executable: URL, arguments: (URL, String) -> [String]) throws {
        name = executable.lastPathComponent
        directory = parent.appendingPathComponent("run-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socket = directory.appendingPathComponent("s.sock").path
        process.executableURL = executable
        process.arguments = arguments(directory, socket)
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "NOTIFY_SOCKET")
        environment.removeValue(forKey: "LISTEN_FDS")
        process.environment = environment
        spawnedAt = ContinuousClock.now
        try process.run()
        launched = true
        let deadline = ContinuousClock.now + .seconds(60)
        while (try? LineSocket(path: socket)) == nil {
            guard process.isRunning else {
                try? FileManager.default.removeItem(at: directory)
                throw BenchmarkError.failed("\(name) exited during start-up (status \(process.terminationStatus))")
            }
            guard ContinuousClock.now < deadline else {
                stop()
                throw BenchmarkError.failed("\(name) did not start within 60 s")
            }
            usleep(1000)
        }
    }

    /// The server's process id, for reading its CPU time and memory in /proc.
    public var pid: Int32 { process.processIdentifier }

    /// A new connection; for todod, with the greeting already read.
    public func connect(greeting: Bool = true) throws -> LineSocket {
        let connection = try LineSocket(path: socket)
        if greeting { _ = try connection.readLine() }
        return connection
    }

    /// Stops the server (SIGTERM, as systemd would; SIGKILL if it has not
    /// exited 30 s later), removes its directory and returns its exit status
    /// (0 for a clean stop; nil if it had to be killed). Calling it again
    /// changes nothing.
    @discardableResult
    public func stop() -> Int32? {
        guard launched else { return nil }
        var killed = false
        if process.isRunning {
            process.terminate()
            let deadline = ContinuousClock.now + .seconds(30)
            while process.isRunning, ContinuousClock.now < deadline { usleep(2000) }
            if process.isRunning {
                FileHandle.standardError.write(Data("bench: \(name) did not stop within 30 s of SIGTERM; killing it\n".utf8))
                kill(process.processIdentifier, SIGKILL)
                killed = true
                process.waitUntilExit()
            }
        }
        try? FileManager.default.removeItem(at: directory)
        guard !killed, process.terminationReason == .exit else { return nil }
        return process.terminationStatus
    }

    /// A benchmark that fails half-way leaves no server behind.
    deinit { stop() }
}
