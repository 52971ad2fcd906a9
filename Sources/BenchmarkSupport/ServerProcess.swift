import Foundation
import Glibc

/// A server a benchmark starts as a child process on a socket in a fresh
/// temporary directory: a real todod (release build, next to the benchmark)
/// with its own data directory, or any other server.
public final class ServerProcess {
    public let directory: URL
    public let socket: String
    private let process = Process()

    /// A real todod with a fresh data directory under `parent`.
    public static func todod(in parent: URL, arguments: [String] = []) throws -> ServerProcess {
        let executable = executableDirectory.appendingPathComponent("todod")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw BenchmarkError.failed("no todod next to the benchmark at \(executable.path); build it: swift build -c release --product todod")
        }
        return try ServerProcess(in: parent, executable: executable) { directory, socket in
            ["--socket", socket, "--data-dir", directory.appendingPathComponent("data").path, "--config", "/dev/null", "--log-level", "warning"] + arguments
        }
    }

    /// Starts `executable` with the arguments `arguments` makes from a fresh
    /// directory under `parent` and a socket path in it, and waits until the
    /// socket accepts.
    public init(in parent: URL, executable: URL, arguments: (URL, String) -> [String]) throws {
        directory = parent.appendingPathComponent("run-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socket = directory.appendingPathComponent("s.sock").path
        process.executableURL = executable
        process.arguments = arguments(directory, socket)
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "NOTIFY_SOCKET")
        environment.removeValue(forKey: "LISTEN_FDS")
        process.environment = environment
        try process.run()
        let deadline = ContinuousClock.now + .seconds(30)
        while (try? LineSocket(path: socket)) == nil {
            guard process.isRunning else { throw BenchmarkError.failed("\(executable.lastPathComponent) exited during start-up") }
            guard ContinuousClock.now < deadline else { throw BenchmarkError.failed("\(executable.lastPathComponent) did not start within 30 s") }
            usleep(10_000)
        }
    }

    /// A new connection; for todod, with the greeting already read.
    public func connect(greeting: Bool = true) throws -> LineSocket {
        let connection = try LineSocket(path: socket)
        if greeting { _ = try connection.readLine() }
        return connection
    }

    /// Stops the server (SIGTERM, as systemd would) and removes its files.
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// A benchmark that fails half-way leaves no server behind.
    deinit { stop() }

    public static var executableDirectory: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }
}
