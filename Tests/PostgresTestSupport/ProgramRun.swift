import Foundation

/// What a program printed, and how it ended.
public struct ProgramOutput: Sendable {
    /// The exit code, or 128 + the signal that ended it.
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public var succeeded: Bool { status == 0 }
}

/// Runs a program to its end and collects what it prints.
///
/// posix_spawn rather than Foundation's `Process`, for one reason: `pg_ctl start`
/// leaves a server running that outlives the test, and that server must hold
/// none of the test process's descriptors. Tests run in parallel; a server that
/// inherited the write end of another test's pipe would keep that test waiting
/// for an end of file that never comes. So the child gets stdin from /dev/null,
/// two pipes of its own, and nothing else (glibc's closefrom action).
enum ProgramRun {
    static func run(
        _ executable: String, _ arguments: [String],
        environment: [String: String], directory: String? = nil,
        timeout: Duration = .seconds(120)
    ) throws -> ProgramOutput {
        var stdoutPipe = try makePipe()
        var stderrPipe = try makePipe()
        defer {
            for descriptor in [stdoutPipe[0], stderrPipe[0]] where descriptor >= 0 { close(descriptor) }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        if let closeFrom = addCloseFrom { _ = closeFrom(&actions, 3) }
        // The server's programs run as `postgres` when the tests run as root, and
        // initdb fails if it cannot find its way back to the working directory.
        if let directory, let changeDirectory = addChangeDirectory {
            _ = changeDirectory(&actions, directory)
        }

        // Default signal handling and no blocked signals, whatever the test
        // process uses: a server that inherited an ignored SIGPIPE or a blocked
        // SIGTERM would not behave as PostgreSQL expects.
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

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(stdoutPipe[1])
        close(stderrPipe[1])
        stdoutPipe[1] = -1
        stderrPipe[1] = -1
        guard spawned == 0 else {
            throw PostgresClusterError("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }

        let (stdout, stderr, timedOut) = collect(stdoutPipe[0], stderrPipe[0], from: pid, timeout: timeout)
        let status = waitForExit(pid)
        if timedOut {
            throw PostgresClusterError(
                "\(executable) \(arguments.joined(separator: " ")) did not finish within \(timeout); killed it.\n\(stderr)")
        }
        return ProgramOutput(
            status: status, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// A pipe whose ends are closed on exec from the start: another test may be
    /// spawning a program at this very moment.
    private static func makePipe() throws -> [Int32] {
        var ends: [Int32] = [-1, -1]
        guard let pipeClosedOnExec, pipeClosedOnExec(&ends, O_CLOEXEC) == 0 else {
            throw PostgresClusterError("pipe failed: \(String(cString: strerror(errno)))")
        }
        return ends
    }

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

    private static func waitForExit(_ pid: pid_t) -> Int32 {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        let signalNumber = raw & 0x7F
        return signalNumber == 0 ? (raw >> 8) & 0xFF : 128 + signalNumber
    }

    // glibc's pipe2 and spawn actions (2.34 and 2.29), which Swift's Glibc module does not show.
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private static let pipeClosedOnExec: Pipe2? = dlsym(nil, "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }
    private typealias AddChangeDirectory = @convention(c) (
        UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
    ) -> Int32
    private static let addChangeDirectory: AddChangeDirectory? = dlsym(nil, "posix_spawn_file_actions_addchdir_np").map {
        unsafeBitCast($0, to: AddChangeDirectory.self)
    }
}
