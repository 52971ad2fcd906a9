import Foundation
import TestSupport

/// A long-lived Python server (Radicale, Xandikos) that cannot outlive the
/// test process.
///
/// The module runs under a small launcher (`launcher` below) whose standard
/// input is a pipe from this process. The launcher starts a thread that reads
/// it, and kills its own process with SIGKILL at end of file: that comes when
/// `stop()` closes our end, and also when the test process dies in any way,
/// SIGKILL and crashes included, because the kernel closes its descriptors.
/// Our end is close-on-exec and `ChildSpawn` gives children nothing but their
/// three descriptors, so no other child holds it open. The launcher runs the
/// server in its own process (runpy), so the pid is the server's: `kill()`
/// kills exactly the server.
final class ServerProcess {
    let pid: pid_t
    private var lifeline: Int32?
    private var exitStatus: Int32?

    /// Starts `/usr/bin/python3 -m module arguments…` under the launcher, with
    /// stdout and stderr appended to `logFile`.
    init(module: String, arguments: [String], environment: [String: String], logFile: String, directory: String) throws {
        let log = open(logFile, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard log >= 0 else {
            throw CalDAVTestServerError("cannot open \(logFile): \(String(cString: strerror(errno)))")
        }
        defer { close(log) }
        let pipe = try ClosedOnExecPipe()
        do {
            defer { close(pipe.readEnd) }
            pid = try ChildSpawn.start(
                Python.executable, ["-c", Self.launcher, module] + arguments, environment: environment,
                stdin: .descriptor(pipe.readEnd), stdout: .descriptor(log), stderr: .descriptor(log),
                directory: directory)
        } catch {
            close(pipe.writeEnd)
            throw error
        }
        lifeline = pipe.writeEnd
    }

    deinit {
        stop()
    }

    /// Whether the server has not ended yet (reaps it if it has).
    var isRunning: Bool {
        if exitStatus != nil { return false }
        if let status = ChildProcessWait.exitStatusIfEnded(pid) {
            exitStatus = status
            return false
        }
        return true
    }

    /// Ends the server: SIGTERM, and the launcher's lifeline cut, which is
    /// SIGKILL if SIGTERM was not enough. Waits until it is gone.
    func stop() {
        guard exitStatus == nil else { return }
        Foundation.kill(pid, SIGTERM)
        cutLifeline()
        exitStatus = ChildProcessWait.waitForExit(pid)
    }

    /// Kills the server at once (SIGKILL), as a crash or an OOM kill would.
    func kill() {
        guard exitStatus == nil else { return }
        Foundation.kill(pid, SIGKILL)
        cutLifeline()
        exitStatus = ChildProcessWait.waitForExit(pid)
    }

    private func cutLifeline() {
        if let lifeline { close(lifeline) }
        lifeline = nil
    }

    /// Watches stdin in a daemon thread, SIGKILLs its own process at end of
    /// file, then runs the module named by argv[1] as `python3 -m` would.
    private static let launcher = """
        import os, runpy, signal, sys, threading
        def watch():
            try:
                while os.read(0, 4096):
                    pass
            except OSError:
                pass
            os.kill(os.getpid(), signal.SIGKILL)
        threading.Thread(target=watch, daemon=True).start()
        module = sys.argv[1]
        sys.argv = [module] + sys.argv[2:]
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        """
}

/// Debian's Python, which has radicale, xandikos and caldav: the python3
/// first on PATH may be another one without them.
enum Python {
    static let executable = "/usr/bin/python3"

    /// The environment every Python child gets: nothing of the test
    /// process's, HOME in the server's folder.
    static func environment(home: String, adding extra: [String: String] = [:]) -> [String: String] {
        [
            "PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8",
            "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1",
        ].merging(extra) { $1 }
    }
}
