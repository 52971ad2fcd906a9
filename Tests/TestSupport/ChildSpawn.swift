import Foundation

/// Starts a program the way every test helper that needs a child does
/// (`ProgramRun` for PostgreSQL's tools, the end-to-end tests'
/// `ChildProcess` for todod and todoctl): posix_spawn with stdin, stdout and
/// stderr as the caller says, nothing else of the test process's, and the
/// signal handling a shell would give.
///
/// Why posix_spawn rather than Foundation's `Process`: the tests run in
/// parallel in one process, and at the moment of any spawn the others hold
/// pipes and sockets, not all of them close-on-exec. A child that inherited
/// one would take descriptors from its own limit, and a long-lived one (the
/// server `pg_ctl start` leaves running) holding the write end of another
/// test's pipe would keep that test waiting for an end of file that never
/// comes. So the child gets its three descriptors and nothing else (glibc's
/// closefrom action). It also starts with default signal handling and no
/// blocked signals, whatever the test process uses: a child that inherited
/// an ignored SIGPIPE or a blocked SIGTERM would not behave as it does when
/// started from a shell, and the tests would prove the wrong thing.
public enum ChildSpawn {
    /// Where one of the child's standard descriptors comes from.
    public enum Stream: Sendable {
        /// /dev/null: read for stdin, written for stdout and stderr.
        case null
        /// A descriptor of the test process's (a `ClosedOnExecPipe` end),
        /// dup2'd onto the child's.
        case descriptor(Int32)
    }

    /// Starts `executable` (a path) with `arguments` and exactly
    /// `environment`, in `directory` when one is given, and returns its
    /// process id. The caller reaps it with waitpid (`ExitStatus` reads the
    /// status) and closes its own copies of the descriptors it passed.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String],
        stdin: Stream = .null, stdout: Stream = .null, stderr: Stream = .null, directory: String? = nil
    ) throws(SpawnFailure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            }
        }
        if let closeFrom = addCloseFrom { _ = closeFrom(&actions, 3) }
        // chdir in the child only: the tests run in parallel, and this
        // process's working directory is every test's.
        if let directory, let changeDirectory = addChangeDirectory { _ = changeDirectory(&actions, directory) }

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
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SpawnFailure("cannot start \(executable): \(String(cString: strerror(result)))") }
        return pid
    }

    // glibc's spawn actions (closefrom 2.34, chdir 2.29), which Swift's Glibc module does not show.
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
