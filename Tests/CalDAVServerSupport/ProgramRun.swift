import Foundation
import TestSupport

/// What a program printed, and how it ended.
struct ProgramOutput: Sendable {
    /// The exit code, or 128 + the signal that ended it.
    let status: Int32
    let stdout: String
    let stderr: String

    var succeeded: Bool { status == 0 }
}

/// Runs a short-lived program (openssl, a python3 script) to its end through
/// `ChildSpawn`, collecting what it prints; killed if it outlives `timeout`.
enum ProgramRun {
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String],
        directory: String? = nil, timeout: Duration = .seconds(60)
    ) throws -> ProgramOutput {
        let stdoutPipe = try ClosedOnExecPipe()
        let stderrPipe = try ClosedOnExecPipe()
        defer {
            close(stdoutPipe.readEnd)
            close(stderrPipe.readEnd)
        }
        let pid: pid_t
        do {
            // Ours go once the child has its copies: the reads below end when the child's do.
            defer {
                close(stdoutPipe.writeEnd)
                close(stderrPipe.writeEnd)
            }
            pid = try ChildSpawn.start(
                executable, arguments, environment: environment,
                stdout: .descriptor(stdoutPipe.writeEnd), stderr: .descriptor(stderrPipe.writeEnd), directory: directory)
        }
        let collected = collect([stdoutPipe.readEnd, stderrPipe.readEnd], from: pid, timeout: timeout)
        let status = ChildProcessWait.waitForExit(pid)
        let stdout = String(decoding: collected[0], as: UTF8.self)
        let stderr = String(decoding: collected[1], as: UTF8.self)
        guard !collected.timedOut else {
            throw CalDAVTestServerError(
                "\(executable) \(arguments.joined(separator: " ")) did not finish within \(timeout); killed it.\n\(stderr)")
        }
        return ProgramOutput(status: status, stdout: stdout, stderr: stderr)
    }

    private struct Collected {
        var outputs: [[UInt8]]
        var timedOut = false
        subscript(index: Int) -> [UInt8] { outputs[index] }
    }

    /// Reads every descriptor until all end, or the time is up (then the child is killed).
    private static func collect(_ descriptors: [Int32], from pid: pid_t, timeout: Duration) -> Collected {
        let deadline = ContinuousClock.now + timeout
        var collected = Collected(outputs: Array(repeating: [], count: descriptors.count))
        var open = Set(descriptors)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            if ContinuousClock.now >= deadline {
                kill(pid, SIGKILL)
                collected.timedOut = true
                return collected
            }
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if poll(&polled, nfds_t(polled.count), 200) < 0, errno == EINTR { continue }
            for entry in polled where entry.revents != 0 {
                guard let index = descriptors.firstIndex(of: entry.fd) else { continue }
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    collected.outputs[index].append(contentsOf: buffer[0..<count])
                } else if count == 0 || errno != EINTR {
                    open.remove(entry.fd)
                }
            }
        }
        return collected
    }
}

/// Reaping children: the one place that calls waitpid.
enum ChildProcessWait {
    /// Waits for `pid` to end and returns its exit code (128 + signal when killed).
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        return ExitStatus.code(fromWaitStatus: raw)
    }

    /// The exit code if `pid` has ended (and reaps it), nil while it runs.
    static func exitStatusIfEnded(_ pid: pid_t) -> Int32? {
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        guard result == pid else { return result < 0 ? -1 : nil }
        return ExitStatus.code(fromWaitStatus: raw)
    }
}
