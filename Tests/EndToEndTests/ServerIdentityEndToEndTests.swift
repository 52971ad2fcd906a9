import Foundation
import Testing

/// todoctl talks only to a server run by its own user or by root: in a
/// directory everyone can write, another user's fake server at the socket
/// path gets nothing, and todoctl exits 69 with one line saying who serves it.
@Suite struct ServerIdentityEndToEndTests {
    @Test(.enabled(if: getuid() == 0, "running processes as other users needs root (CI runs as root)"))
    func todoctlSendsNothingToAnotherUsersServer() async throws {
        // A shared directory, as /tmp is: everyone may create files in it.
        let shared = "/tmp/todod-shared-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: shared) }
        chmod(shared, 0o1777)
        // The client binary where another user can surely run it from. Copied
        // by cp, not in this process: a child another test spawns meanwhile
        // would inherit the copy's open descriptor, and exec would then fail
        // with "text file busy".
        let client = shared + "/todoctl"
        let copy = try ChildProcess(URL(fileURLWithPath: "/bin/cp"), [Binaries.todoctl.path, client])
        #expect(await copy.waitForExit(timeout: .seconds(60)) == 0)
        chmod(client, 0o755)
        let socket = shared + "/todod.sock"

        // nobody (65534) serves the path, greets like todod, and reports
        // every byte it receives.
        let script = """
            import os, socket, sys
            server = socket.socket(socket.AF_UNIX); server.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o777); server.listen(1)
            server.settimeout(60)
            connection, _ = server.accept()
            connection.settimeout(3)
            received = b""
            try:
                connection.sendall(b'{"jsonrpc":"2.0","method":"server.hello","params":{"protocol":"1.0"}}\\n')
                while True:
                    chunk = connection.recv(65536)
                    if not chunk: break
                    received += chunk
            except (socket.timeout, ConnectionResetError, BrokenPipeError):
                pass  # the client hung up (or went quiet): what it sent is in `received`
            print("received:", repr(received), flush=True)
            """
        let serverOutput = OutputCollector()
        let fake = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script, socket],
            stdout: serverOutput, stderr: serverOutput)
        defer { fake.signal(SIGKILL) }
        let deadline = ContinuousClock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: socket) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }

        // A third user (daemon, uid 1) runs todoctl: root would be allowed.
        let stdout = OutputCollector()
        let stderr = OutputCollector()
        let todoctl = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=1", "--regid=1", "--clear-groups", client, "--socket", socket, "add", "secret plan"],
            environment: ["PATH": "/usr/bin:/bin"],
            stdout: stdout, stderr: stderr)
        let status = await todoctl.waitForExit(timeout: .seconds(60))
        await stderr.waitForEndOfFile()
        #expect(status == 69, "stdout: \(stdout.text) stderr: \(stderr.text)")
        let lines = stderr.text.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(stderr.text)")
        #expect(stderr.text.contains("refusing to talk to \(socket)"), "\(stderr.text)")
        #expect(stderr.text.contains("served by uid 65534 (nobody)"), "\(stderr.text)")

        #expect(await fake.waitForExit(timeout: .seconds(30)) == 0, "\(serverOutput.text)")
        await serverOutput.waitForEndOfFile()
        #expect(serverOutput.text == "received: b''\n", "the fake server received: \(serverOutput.text)")
    }
}
