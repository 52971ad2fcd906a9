import Foundation
import Testing

/// A todod that stops between greeting a connection and reading its request
/// has carried out nothing sent on it: todoctl sends the request again to the
/// next todod instead of failing the user's command.
///
/// The stopping todod is scripted, so the moment it stops is exact: it
/// greets, says `server.shutdown` and closes before todoctl has sent
/// anything (a real todod does this to a connection it accepted as it began
/// to stop). The next connection is answered.
@Suite struct TodoctlRetryEndToEndTests {
    @Test func aRequestNotYetSentWhenTodoDStoppedIsSentToTheNextOne() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("todoctl-retry-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("todod.sock").path

        let script = """
            import json, socket, sys
            hello = b'{"jsonrpc":"2.0","method":"server.hello","params":{"protocol":"1.0"}}\\n'
            server = socket.socket(socket.AF_UNIX); server.bind(sys.argv[1]); server.listen(4)
            server.settimeout(300)
            first, _ = server.accept()
            first.sendall(hello + b'{"jsonrpc":"2.0","method":"server.shutdown","params":{"reason":"todod is stopping"}}\\n')
            first.close()
            second, _ = server.accept()
            second.settimeout(300)
            second.sendall(hello)
            request = json.loads(second.makefile("rb").readline())
            second.sendall(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": {"answeredBy": "the next todod"}}).encode() + b"\\n")
            print("second connection asked for", request["method"], flush=True)
            """
        // The fake's own timeouts are long: it waits in real time, and this
        // test's task may be held up by other tests' blocking work before
        // todoctl even starts. It is killed at the end in any case.
        let serverOutput = OutputCollector()
        let fake = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, socket], stdout: serverOutput, stderr: serverOutput)
        defer { fake.signal(SIGKILL) }
        let deadline = ContinuousClock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: socket) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }

        let result = try await todoctl("call", "server.status", socket: socket)
        #expect(result.status == 0, "server: \(serverOutput.text) stdout: \(result.stdout) stderr: \(result.stderr)")
        #expect(result.stdout.contains("the next todod"), "stdout: \(result.stdout) stderr: \(result.stderr)")
        #expect(await fake.waitForExit(timeout: .seconds(30)) == 0, "\(serverOutput.text)")
        await serverOutput.waitForEndOfFile()
        #expect(serverOutput.text == "second connection asked for server.status\n", "\(serverOutput.text)")
    }
}
