import Foundation

/// What a program printed, and how it ended.
public struct ProgramOutput: Sendable {
    /// The exit code, or 128 + the signal that ended it.
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public var succeeded: Bool { status == 0 }
}

/// Runs a program to its end and collects what it prints (PostgreSQL's
/// tools, openssl, a python3 script).
///
/// Started by `ChildSpawn` (posix_spawn, no descriptor but its own three) for
/// one reason above all: `pg_ctl start` leaves a server running that
/// outlives the test, and that server must hold none of the test process's
/// descriptors, or another test would wait for an end of file on its pipe
/// that never comes. So the child gets stdin from /dev/null, two pipes of its
/// own, and nothing else.
public enum ProgramRun {
    public static func run(
        _ executable: String, _ arguments: [String],
        environment: [String: String], directory: String? = nil,
        timeout: Duration = .seconds(120)
    ) throws -> ProgramOutput {
        let stdoutPipe = try outputPipe()
        let stderrPipe = try outputPipe()
        defer {
            close(stdoutPipe.readEnd)
            close(stderrPipe.readEnd)
        }
        let pid: pid_t
        do {
            // The child has its own copies of the write ends (or none): ours
            // go, so that the reads below end when the child's do.
            defer {
                close(stdoutPipe.writeEnd)
                close(stderrPipe.writeEnd)
            }
            // The server's programs run as `postgres` when the tests run as root, and
            // initdb fails if it cannot find its way back to the working directory.
            pid = try ChildSpawn.start(
                executable, arguments, environment: environment,
                stdout: .descriptor(stdoutPipe.writeEnd), stderr: .descriptor(stderrPipe.writeEnd), directory: directory)
        }

        let (stdout, stderr, timedOut) = collect(stdoutPipe.readEnd, stderrPipe.readEnd, from: pid, timeout: timeout)
        let status = ChildProcessWait.waitForExit(pid)
        if timedOut {
            throw SpawnFailure(
                "\(executable) \(arguments.joined(separator: " ")) did not finish within \(timeout); killed it.\n\(stderr)")
        }
        return ProgramOutput(
            status: status, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    private static func outputPipe() throws -> ClosedOnExecPipe { try ClosedOnExecPipe() }

    /// Reads both pipes until both end (or the time is up, when the child is killed).
    private static func collect(_ stdout: Int32, _ stderr: Int32, from pid: pid_t, timeout: Duration)
        -> (stdout: [UInt8], stderr: [UInt8], timedOut: Bool)
    {
        let deadline = ContinuousClock.now + timeout
        var collected: [Int32: [UInt8]] = [stdout: [], stderr: []]
        var open = [stdout, stderr]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            if ContinuousClock.now >= deadline {
                kill(pid, SIGKILL)
                return (collected[stdout]!, collected[stderr]!, true)
            }
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), 200)
            if ready < 0, errno == EINTR { continue }
            for entry in polled where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    collected[entry.fd]!.append(contentsOf: buffer[0..<count])
                } else if count == 0 || errno != EINTR {
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        return (collected[stdout]!, collected[stderr]!, false)
    }
}

/// Reaping children: the one place that calls waitpid.
public enum ChildProcessWait {
    /// Waits for `pid` to end and returns its exit code (128 + signal when killed).
    public static func waitForExit(_ pid: pid_t) -> Int32 {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        return ExitStatus.code(fromWaitStatus: raw)
    }

    /// The exit code if `pid` has ended (and reaps it), nil while it runs.
    public static func exitStatusIfEnded(_ pid: pid_t) -> Int32? {
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        guard result == pid else { return result < 0 ? -1 : nil }
        return ExitStatus.code(fromWaitStatus: raw)
    }
}
