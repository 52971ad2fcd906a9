import BenchmarkSupport
import Foundation
import Glibc

/// Redis 7 as the anchor for durable writes and fan-out: Debian's
/// `redis-server`, started by the benchmark on a Unix socket in its own
/// directory under the data parent (the same disk as todod's data), with
/// every write appended to its log and synced before the reply
/// (`appendonly yes`, `appendfsync always`), no TCP port, no snapshots.
/// `scripts/bench protocol` installs Debian's `redis-server` and `redis-tools`.
extension ServerProcess {
    static func redis(in parent: URL, maxClients: Int) throws -> ServerProcess {
        let executable = try Redis.tool("redis-server")
        return try ServerProcess(in: parent, executable: executable) { directory, socket in
            [
                "--port", "0", "--unixsocket", socket, "--unixsocketperm", "700",
                "--dir", directory.path, "--appendonly", "yes", "--appendfsync", "always", "--save", "",
                "--daemonize", "no", "--logfile", directory.appendingPathComponent("redis.log").path,
                "--maxclients", "\(maxClients)",
            ]
        }
    }
}

enum Redis {
    /// `name` on `PATH` (Debian puts them in /usr/bin).
    static func tool(_ name: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw BenchmarkError.failed(
            "no \(name): the Redis anchors need Debian's redis-server and redis-tools (scripts/bench protocol installs them)")
    }

    /// "7.0.15", from `redis-server --version`.
    static var version: String {
        let output = (try? run(tool("redis-server"), ["--version"], timeout: .seconds(10))) ?? ""
        return output.split(separator: " ").first { $0.hasPrefix("v=") }.map { String($0.dropFirst(2)) } ?? "?"
    }

    /// `redis-benchmark -s SOCKET -t set -c CLIENTS [-P PIPELINE] -n REQUESTS --csv`:
    /// the requests per second it reports. `requests` must be a multiple of
    /// `pipeline` × `clients`: otherwise the last batch overshoots the count,
    /// and redis-benchmark 7.0 may abort with "All clients disconnected".
    static func benchmarkSet(socket: String, clients: Int, pipeline: Int, requests: Int) throws -> Double {
        precondition(requests % (clients * pipeline) == 0, "requests not a multiple of clients × pipeline")
        var arguments = ["-s", socket, "-t", "set", "-c", "\(clients)", "-n", "\(requests)", "--csv"]
        if pipeline > 1 { arguments += ["-P", "\(pipeline)"] }
        let output = try run(tool("redis-benchmark"), arguments, timeout: .seconds(90))
        // "test","rps",... then "SET","4502.25",...
        let lines = output.split(whereSeparator: \.isNewline)
        guard let row = lines.first(where: { $0.hasPrefix("\"SET\"") }),
            let rate = row.split(separator: ",").dropFirst().first.flatMap({ Double($0.trimmingCharacters(in: ["\""])) })
        else { throw BenchmarkError.failed("unexpected redis-benchmark output: \(output.prefix(500))") }
        return rate
    }

    /// Runs `executable` to the end (killing it after `timeout`) and returns its standard output.
    static func run(_ executable: URL, _ arguments: [String], timeout: Duration) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        let deadline = ContinuousClock.now + timeout
        // The output is a few lines, far below a pipe's buffer, so waiting
        // before reading cannot block the child.
        while process.isRunning, ContinuousClock.now < deadline { usleep(5000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw BenchmarkError.failed("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) took longer than \(timeout)")
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw BenchmarkError.failed("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed: \(text.prefix(500))")
        }
        return text
    }
}
