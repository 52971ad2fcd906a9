import CalDAVServerSupport
import Foundation
import TestSupport
import Testing

/// `todoctl sync …` as a person and a script meet it: a failure exits with
/// the code todoctl documents for it (65 refused, 69 unreachable, 64 only
/// for a command line that cannot be read), says why in one line named
/// for the command typed, and says how to mend it; the help is one help.
extension SyncEndToEndTests {
@Suite struct SyncCommandExitsEndToEndTests {
    /// `todoctl sync ARGUMENTS` for this list, with its sync's folders.
    static func todoctlSync(_ list: SyncedList, _ arguments: [String]) async throws -> CommandResult {
        try await todoctl(arguments: ["sync"] + arguments, socket: list.daemon.socket, environment: list.environment)
    }

    @Test func syncNowExitsNonZeroWithTheReasonWhenTheRoundFails() async throws {
        let server = try CalDAVTestServer.radicale()
        defer { server.stop() }
        let list = try SyncedList(server: server)
        try await list.start()
        try await list.todo("add", "buy milk")

        // A wrong password: refused (65), and how to store the right one.
        let right = try String(contentsOfFile: list.passwordFile, encoding: .utf8)
        try Data("not-the-password\n".utf8).write(to: URL(fileURLWithPath: list.passwordFile))
        let refused = try await Self.todoctlSync(list, ["now"])
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.contains("todoctl sync: the sync failed: "), "\(refused)")
        #expect(refused.stderr.contains("refused the user name or password") && refused.stderr.contains("todoctl sync password"), "\(refused)")
        let status = try await list.status()
        #expect((status["error"] as? String)?.contains("todoctl sync password") == true, "\(status)")
        #expect(status["errorKind"] as? String == "refused", "\(status)")

        // todod gone: said as that (69), not as the refusal the status still holds.
        _ = try await list.daemon.terminate()
        let noDaemon = try await Self.todoctlSync(list, ["now"])
        #expect(noDaemon.status == 69 && noDaemon.stderr.contains("cannot reach todod"), "\(noDaemon)")
        try await list.daemon.start()

        // `sync password` stores the right one once the server takes it;
        // a wrong one is refused and not stored.
        let wrongFile = list.home.appendingPathComponent("wrong").path
        try Data("still-wrong\n".utf8).write(to: URL(fileURLWithPath: wrongFile))
        let stillWrong = try await Self.todoctlSync(list, ["password", "--password-file", wrongFile])
        #expect(stillWrong.status == 65, "\(stillWrong)")
        #expect(try String(contentsOfFile: list.passwordFile, encoding: .utf8) == "not-the-password\n")
        let rightFile = list.home.appendingPathComponent("right").path
        try Data(right.utf8).write(to: URL(fileURLWithPath: rightFile))
        let stored = try await Self.todoctlSync(list, ["password", "--password-file", rightFile])
        #expect(stored.status == 0, "\(stored)")
        let attributes = try FileManager.default.attributesOfItem(atPath: list.passwordFile)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let synced = try await Self.todoctlSync(list, ["now"])
        #expect(synced.status == 0, "\(synced)")
        #expect(try list.serverTodos().map(\.summary) == ["buy milk"])

        // The server down: unreachable (69).
        server.stop()
        let down = try await Self.todoctlSync(list, ["now"])
        #expect(down.status == 69, "\(down)")
        #expect(down.stderr.contains("todoctl sync: the sync failed: "), "\(down)")
    }

    @Test func syncAddFailuresAreNotUsageErrors() async throws {
        let server = try CalDAVTestServer.radicale()
        defer { server.stop() }
        let list = try SyncedList(server: server)
        try await list.daemon.start()
        let passwordFile = list.home.appendingPathComponent("password").path
        func add(_ url: String, password: String) async throws -> CommandResult {
            try Data((password + "\n").utf8).write(to: URL(fileURLWithPath: passwordFile))
            return try await Self.todoctlSync(list, ["add", url, "--user", server.user, "--password-file", passwordFile, "--no-start"])
        }

        let wrong = try await add(server.collectionURL, password: "not-the-password")
        #expect(wrong.status == 65, "\(wrong)")
        #expect(wrong.stderr.hasPrefix("todoctl sync: ") && wrong.stderr.contains("refused the user name or password"), "\(wrong)")
        #expect(!wrong.stderr.contains("Usage:") && !wrong.stderr.contains("todod-sync --help"), "\(wrong)")

        let closed = try await add("http://127.0.0.1:\(try Self.closedPort())/me/tasks/", password: server.password)
        #expect(closed.status == 69, "\(closed)")
        #expect(!closed.stderr.contains("Usage:"), "\(closed)")

        let noScheme = try await add("127.0.0.1:\(server.port)/me/tasks/", password: server.password)
        #expect(noScheme.status == 64, "\(noScheme)")
        #expect(noScheme.stderr.contains("starts with https:// or http://") && !noScheme.stderr.contains("Usage:"), "\(noScheme)")

        // Nothing was set up by any of them.
        let status = try await Self.todoctlSync(list, ["status"])
        #expect(status.status == 78 && status.stderr.contains("no sync is set up"), "\(status)")
    }

    /// A plain web server (python's http.server) answers PROPFIND with 501:
    /// the URL does not speak CalDAV; waiting would not help.
    @Test func aPlainWebServerIsSaidNotToSpeakCalDAV() async throws {
        let folder = try TemporaryDirectory("todod-plain-web")
        let port = try Self.closedPort()
        let output = OutputCollector()
        let web = try ChildProcess(
            ExternalPrograms.python, ["-m", "http.server", "--bind", "127.0.0.1", "--directory", folder.path, String(port)],
            stdout: output, stderr: output)
        defer { web.signal(SIGKILL) }
        let list = try SyncedList(server: try CalDAVTestServer.xandikos())
        defer { list.server.stop() }
        try await list.daemon.start()
        let passwordFile = list.home.appendingPathComponent("password").path
        try Data("pw\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        var result = CommandResult(status: -1, stdout: "", stderr: "")
        // Until the web server listens (a refusal until then is 69).
        for _ in 0..<100 {
            result = try await Self.todoctlSync(
                list, ["add", "http://127.0.0.1:\(port)/", "--user", "me", "--password-file", passwordFile, "--no-start"])
            if result.status != 69 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("does not speak CalDAV") && !result.stderr.contains("try again later"), "\(result)")
    }

    @Test func syncHelpIsTodoctlsHelpOfSync() async throws {
        let list = try SyncedList(server: try CalDAVTestServer.xandikos())
        defer { list.server.stop() }
        let asked = try await Self.todoctlSync(list, ["--help"])
        let helped = try await todoctl(arguments: ["help", "sync"], socket: list.daemon.socket, environment: list.environment)
        #expect(asked.status == 0 && helped.status == 0)
        #expect(asked.stdout == helped.stdout)
        #expect(asked.stdout.contains("sync password") && asked.stdout.contains("--replace"), "\(asked.stdout)")
    }

    /// A port nothing listens on (bound, then closed).
    static func closedPort() throws -> Int {
        let output = try ProgramRun.run(
            ExternalPrograms.python.path,
            ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"],
            environment: ProcessInfo.processInfo.environment)
        guard let port = Int(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw TestFailure("no port: \(output)") }
        return port
    }
}
}
