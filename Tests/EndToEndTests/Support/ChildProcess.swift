import Foundation
import TestSupport

/// A child process started with posix_spawn and reaped with waitpid.
///
/// Foundation's `Process` on Linux learns of exits through a socketpair and a
/// run-loop thread; these tests only need "start with these descriptors" and
/// "has it exited, with what status", which posix_spawn (`ChildSpawn`) and a
/// non-blocking waitpid give directly, with every descriptor accounted for.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    private let lock = NSLock()
    private var status: Int32?

    /// Starts `executable`. stdin reads `input` (or /dev/null); stdout and
    /// stderr go to the collectors given, else to /dev/null. Nothing else of
    /// the test process's is passed on (`ChildSpawn` says why), and the child
    /// starts with default signal handling and an empty signal mask.
    init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
         input: String? = nil, stdout: OutputCollector? = nil, stderr: OutputCollector? = nil) throws {
        let inputPipe = try input.map { _ in try ClosedOnExecPipe() }
        let spawned = Result { () throws(SpawnFailure) in
            try ChildSpawn.start(
                executable.path, arguments, environment: environment ?? ProcessInfo.processInfo.environment,
                stdin: inputPipe.map { .descriptor($0.readEnd) } ?? .null,
                stdout: stdout.map { .descriptor($0.writeDescriptor) } ?? .null,
                stderr: stderr.map { .descriptor($0.writeDescriptor) } ?? .null)
        }
        if let input, let inputPipe {
            close(inputPipe.readEnd)
            // Small inputs fit in the pipe's buffer, so this does not block.
            _ = input.utf8CString.withUnsafeBytes { write(inputPipe.writeEnd, $0.baseAddress, $0.count - 1) }
            close(inputPipe.writeEnd)
        }
        switch spawned {
        case .success(let pid): self.pid = pid
        case .failure(let failure): throw TestFailure(failure.description)
        }
        stdout?.processStarted()
        stderr?.processStarted()
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = waitpid(pid, nil, 0)
        }
    }

    func signal(_ signal: Int32) {
        kill(pid, signal)
    }

    /// The exit code (or 128 + signal), once the child has exited; `nil` while it runs.
    var exitStatus: Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let status { return status }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
        status = ExitStatus.code(fromWaitStatus: raw)
        return status
    }

    var isRunning: Bool { exitStatus == nil }

    /// Waits up to `timeout` for the child to exit; returns its status, or `nil` if it still runs.
    func waitForExit(timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let status = exitStatus { return status }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return exitStatus
    }
}
