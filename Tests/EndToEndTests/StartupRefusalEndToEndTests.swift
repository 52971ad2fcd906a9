import Foundation
import TestSupport
import Testing

/// A todod that cannot start (a todod.conf line it cannot use, a store it
/// cannot open) under socket activation stays up and tells every client why,
/// so retrying clients neither start it in a loop nor see a vanished socket;
/// run by hand, it exits 78 at once. `systemd-socket-activate` passes the
/// socket the way systemd does; Tests/systemd/socket-activation.sh runs the
/// same under a real user manager.
@Suite struct StartupRefusalEndToEndTests {
    @Test func aBadConfigurationIsToldToEveryClientByOneProcess() async throws {
        let daemon = try RefusingDaemon(configuration: "# mine\nlog-level = loud\n")
        try await daemon.start()

        for _ in 1...3 {
            let listed = try await todoctl("ls", socket: daemon.socket)
            #expect(listed.status == 78, "\(listed)")
            #expect(listed.stdout.isEmpty)
            #expect(listed.stderr.hasPrefix("todoctl: todod will not start: \(daemon.configurationPath) line 2: log-level must be one of"), "\(listed.stderr)")
            #expect(listed.stderr.contains("not 'loud'. Fix it, then run `systemctl --user restart todod`"), "\(listed.stderr)")
        }
        let added = try await todoctl("add", "kept nowhere", socket: daemon.socket)
        #expect(added.status == 78, "\(added)")
        let watched = try await todoctl("watch", socket: daemon.socket)
        #expect(watched.status == 78, "\(watched)")
        #expect(watched.stderr.contains("line 2: log-level"), "\(watched.stderr)")

        // The protocol's view: one error line in place of the greeting.
        let raw = try RawConnection(path: daemon.socket)
        defer { raw.close() }
        let line = try #require(try raw.readLine(timeout: .seconds(30)))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? Int == -32007)
        #expect((error["data"] as? [String: Any])?["name"] as? String == "server.badConfiguration")
        #expect(object["id"] is NSNull)

        // All of it was one process, which ends 78 when stopped: the cause stands.
        #expect(daemon.process.isRunning, "\(daemon.log.text)")
        daemon.process.signal(SIGTERM)
        #expect(await daemon.process.waitForExit(timeout: .seconds(30)) == 78)
        await daemon.log.waitForEndOfFile()
        #expect(daemon.log.text.contains("todod will not start: \(daemon.configurationPath) line 2"), "\(daemon.log.text)")
    }

    /// SIGHUP (`systemctl --user reload todod`) ends the refusal with 0: the
    /// next connection starts todod afresh, with the file as it is by then.
    @Test func aReloadEndsTheRefusalCleanly() async throws {
        let daemon = try RefusingDaemon(configuration: "reminder-hours = soon\n")
        try await daemon.start()
        let listed = try await todoctl("ls", socket: daemon.socket)
        #expect(listed.stderr.contains("line 1: reminder-hours"), "\(listed.stderr)")
        daemon.process.signal(SIGHUP)
        #expect(await daemon.process.waitForExit(timeout: .seconds(30)) == 0)
    }

    /// A store todod cannot open for a reason waiting does not change is
    /// refused the same way.
    @Test func anUnusableStoreIsToldToo() async throws {
        let daemon = try RefusingDaemon(configuration: "store = mysql://localhost/todo\n")
        try await daemon.start()
        let listed = try await todoctl("ls", socket: daemon.socket)
        #expect(listed.status == 78, "\(listed)")
        #expect(listed.stderr.contains("todod will not start: "), "\(listed.stderr)")
        #expect(listed.stderr.contains("mysql"), "\(listed.stderr)")
        daemon.process.signal(SIGTERM)
        #expect(await daemon.process.waitForExit(timeout: .seconds(30)) == 78)
    }

    /// Run by hand there is nobody to tell but the terminal: exit 78 at once,
    /// the line on stderr.
    @Test func runByHandItExitsAtOnce() async throws {
        let daemon = try DaemonProcess()
        let configuration = daemon.directory.appendingPathComponent("todod.conf").path
        try "log-level = loud\n".write(toFile: configuration, atomically: true, encoding: .utf8)
        daemon.arguments = ["--config", configuration]
        #expect(try await daemon.startExpectingRefusal() == 78)
        #expect(daemon.log.text.contains("todod: \(configuration) line 1: log-level must be one of"), "\(daemon.log.text)")
    }
}

/// todod under `systemd-socket-activate`, which binds the socket, waits for
/// the first connection and execs todod with it, as todod.socket does.
private final class RefusingDaemon {
    let directory: TemporaryDirectory
    let socket: String
    let configurationPath: String
    let log = OutputCollector()
    private(set) var process: ChildProcess!

    init(configuration: String) throws {
        directory = try TemporaryDirectory("refusal", in: "/tmp")
        socket = directory.path + "/todod.sock"
        configurationPath = directory.path + "/todod.conf"
        try configuration.write(toFile: configurationPath, atomically: true, encoding: .utf8)
    }

    func start() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "NOTIFY_SOCKET")
        process = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/systemd-socket-activate"),
            ["-l", socket, "--", Binaries.todod.path, "--data-dir", directory.path + "/data", "--config", configurationPath],
            environment: environment, stdout: log, stderr: log)
        let deadline = ContinuousClock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: socket) {
            guard ContinuousClock.now < deadline else { throw TestFailure("no socket within 30 s: \(log.text)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    deinit {
        process?.signal(SIGKILL)
    }
}
