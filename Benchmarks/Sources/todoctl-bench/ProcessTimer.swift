import BenchmarkSupport
import Foundation

/// Runs a command as a whole process, the way a person's shell does, and
/// returns the wall time from spawn to exit. Output goes to /dev/null; a
/// failing command stops the benchmark (a fast error is not a result).
enum ProcessTimer {
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> Double {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        let spawned = posix_spawnp(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchmarkError.system("posix_spawn \(executable)", spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let elapsed = (ContinuousClock.now - start).milliseconds
        guard status == 0 else {
            throw BenchmarkError.failed("\(executable) \(arguments.joined(separator: " ")) exited with status \(status)")
        }
        return elapsed
    }
}
