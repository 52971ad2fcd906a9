import Foundation

/// A child process started with posix_spawn and reaped with waitpid.
///
/// Foundation's `Process` on Linux learns of exits through a socketpair and a
/// run-loop thread; these tests only need "start with these descriptors" and
/// "has it exited, with what status", which posix_spawn and a non-blocking
/// waitpid give directly, with every descriptor accounted for.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    private let lock = NSLock()
    private var status: Int32?

    /// Starts `executable`. stdin reads `input` (or /dev/null); stdout and
    /// stderr go to the collectors given, else to /dev/null. The child starts
    /// with default signal handling and an empty signal mask, whatever the
    /// test process uses.
    init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
         input: String? = nil, stdout: OutputCollector? = nil, stderr: OutputCollector? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var inputPipe: [Int32] = [-1, -1]
        if input != nil {
            precondition(pipe(&inputPipe) == 0, "pipe failed")
            for descriptor in inputPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        for (target, collector) in [(Int32(1), stdout), (Int32(2), stderr)] {
            if let collector {
                posix_spawn_file_actions_adddup2(&actions, collector.writeDescriptor, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            }
        }
        // Nothing else of the test process's: tests run in parallel, and the
        // pipes and sockets they hold at that moment (not all close-on-exec)
        // would otherwise take descriptors from the child's limit.
        // (glibc 2.34's closefrom action; Swift's Glibc module does not show it.)
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let environment = environment ?? ProcessInfo.processInfo.environment
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        if let input {
            close(inputPipe[0])
            // Small inputs fit in the pipe's buffer, so this does not block.
            _ = input.utf8CString.withUnsafeBytes { write(inputPipe[1], $0.baseAddress, $0.count - 1) }
            close(inputPipe[1])
        }
        guard result == 0 else {
            throw TestFailure("cannot start \(executable.path): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        stdout?.processStarted()
        stderr?.processStarted()
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
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
        let signalNumber = raw & 0x7F
        status = signalNumber == 0 ? (raw >> 8) & 0xFF : 128 + signalNumber
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
