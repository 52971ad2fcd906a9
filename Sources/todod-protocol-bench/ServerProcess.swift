import Foundation
import Glibc

/// A server the benchmark starts as a child process on a socket in a fresh
/// temporary directory: a real todod (release build, next to this executable)
/// with its own data directory, or the echo server of the floor.
final class ServerProcess {
    let directory: URL
    let socket: String
    private let process = Process()

    /// A real todod with a fresh data directory under `parent`.
    static func todod(in parent: URL, arguments: [String] = []) throws -> ServerProcess {
        let executable = executableDirectory.appendingPathComponent("todod")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw BenchmarkError.failed("no todod next to the benchmark at \(executable.path); build it: swift build -c release --product todod")
        }
        return try ServerProcess(in: parent, executable: executable) { directory, socket in
            ["--socket", socket, "--data-dir", directory.appendingPathComponent("data").path, "--log-level", "warning"] + arguments
        }
    }

    /// The echo server that sets the floor.
    static func echo(in parent: URL) throws -> ServerProcess {
        try ServerProcess(in: parent, executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()) { _, socket in
            ["--echo-server", socket]
        }
    }

    private init(in parent: URL, executable: URL, arguments: (URL, String) -> [String]) throws {
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
    func connect(greeting: Bool = true) throws -> LineSocket {
        let connection = try LineSocket(path: socket)
        if greeting { _ = try connection.readLine() }
        return connection
    }

    /// Stops the server (SIGTERM, as systemd would) and removes its files.
    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    private static var executableDirectory: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }
}
