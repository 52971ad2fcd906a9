import Foundation
import TestSupport
import Testing

/// Protocol v1 against the real daemon: the conformance transcripts and
/// schemas, introspection, slow consumers, and other users.
@Suite struct ProtocolV1EndToEndTests {
    static let protocolDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Protocol")

    /// Every transcript in Protocol/transcripts (and the example in
    /// PROTOCOL.md) replayed, every server line validated against the JSON
    /// Schemas with Python's `jsonschema` (Debian's python3-jsonschema,
    /// installed by scripts/bootstrap).
    @Test func everyTranscriptReplaysAndEveryLineMatchesTheSchemas() async throws {
        let scratch = try TemporaryDirectory("replay", in: "/tmp")
        let output = OutputCollector()
        let child = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [Self.protocolDirectory.appendingPathComponent("conformance/replay.py").path, "--todod", Binaries.todod.path],
            environment: Self.replayEnvironment(scratch: scratch), stdout: output, stderr: output)
        let status = await child.waitForExit(timeout: .seconds(600))
        await output.waitForEndOfFile()
        #expect(status == 0, "\(output.text)")
        #expect(output.text.contains("transcripts passed"), "\(output.text)")
    }

    /// This process's environment with TMPDIR set to `scratch`, for replay.py:
    /// it makes a folder (todod-conformance-*) for each transcript's todod and
    /// removes it after the transcript; inside `scratch`, one left by a
    /// replay killed at the timeout goes with it when the test ends. Under /tmp, not
    /// TMPDIR: todod's socket is inside, and its path must stay under 108 bytes.
    static func replayEnvironment(
        scratch: TemporaryDirectory, _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String: String] {
        environment.merging(["TMPDIR": scratch.path]) { $1 }
    }

    /// `rpc.describe` answers with exactly the document in Protocol/schema.
    @Test func describeAgreesWithTheSchemaFile() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let connection = try RawConnection(path: daemon.socket, readGreeting: true)
        try connection.send(#"{"jsonrpc":"2.0","id":1,"method":"rpc.describe"}"# + "\n")
        let reply = try #require(try connection.readLine())
        let described = try #require(
            (try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any])?["result"] as? NSDictionary)
        let file = try Data(contentsOf: Self.protocolDirectory.appendingPathComponent("schema/todod.schema.json"))
        let written = try #require(try JSONSerialization.jsonObject(with: file) as? NSDictionary)
        #expect(described.isEqual(written), "Protocol/schema/todod.schema.json is stale: regenerate it with `todod --print-schema`")
        let methods = try #require(described["methods"] as? [String: Any])
        #expect(methods.keys.contains("transaction") && methods.keys.contains("view.subscribe") && methods.count >= 17)
    }

    /// A subscriber that stops reading is told it lags and is then
    /// disconnected, while another subscriber gets every event meanwhile.
    @Test func aSubscriberThatStopsReadingLagsThenIsDisconnectedWhileOthersAreServed() async throws {
        let daemon = try DaemonProcess()
        // A stall timeout long enough that a busy machine still starts reading
        // within it after the goodbye, or the unread notices are closed away.
        daemon.arguments = ["--outbox-soft-limit", "65536", "--outbox-hard-limit", "1048576", "--stall-timeout", "6"]
        try await daemon.start()
        let slow = try RawConnection(path: daemon.socket, readGreeting: true)
        let fast = try RawConnection(path: daemon.socket, readGreeting: true)
        let writer = try RawConnection(path: daemon.socket, readGreeting: true)
        // Many subscriptions on the slow connection multiply what it is sent.
        for id in 1...20 {
            try slow.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"view.subscribe"}"# + "\n")
        }
        try fast.send(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe","params":{"properties":["totalCount"]}}"# + "\n")
        _ = try fast.readLine()

        let title = String(repeating: "x", count: 400)
        for id in 1...300 {
            try writer.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"todo.add","params":{"title":"\#(title) \#(id)"}}"# + "\n")
            let reply = try #require(try writer.readLine(), "no reply to add \(id)")
            #expect(reply.contains(#""id":\#(id),"#))
            // The fast subscriber has this add's event, with every revision in turn.
            let event = try #require(try fast.readLine(), "fast subscriber got no event for add \(id)")
            #expect(event.contains(#""totalCount":\#(id)}"#), "\(event.prefix(200))")
        }
        // The slow one has read nothing for the stall timeout: goodbye.
        #expect(await daemon.log.wait(timeout: .seconds(30)) { $0.contains("disconnecting a slow client") })
        var lines: [String] = []
        while let line = try slow.readLine(timeout: .seconds(20)) { lines.append(line) }
        let lagging = lines.firstIndex { $0.contains(#""method":"connection.lagging""#) }
        let goodbye = lines.firstIndex { $0.contains(#""method":"connection.goodbye""#) }
        #expect(lagging != nil, "no lagging notice among \(lines.count) lines")
        #expect(goodbye == lines.count - 1, "the goodbye is not the last line")
        if let lagging, let goodbye { #expect(lagging < goodbye) }
        #expect(lines.last?.contains(#""reason":"stalled""#) == true)
        // Nothing acknowledged was lost, and the daemon still serves.
        try writer.send(#"{"jsonrpc":"2.0","id":9999,"method":"server.status"}"# + "\n")
        let status = try #require(try writer.readLine())
        #expect(status.contains(#""items":300"#))
    }

    /// After lagging, a client that reads again gets one reset per
    /// subscription with the current state, then events as before.
    @Test func aLaggingClientThatCatchesUpGetsAResetAndThenEvents() async throws {
        let daemon = try DaemonProcess()
        daemon.arguments = ["--outbox-soft-limit", "65536", "--stall-timeout", "120"]
        try await daemon.start()
        let slow = try RawConnection(path: daemon.socket, readGreeting: true)
        let writer = try RawConnection(path: daemon.socket, readGreeting: true)
        try slow.send(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe","params":{"properties":["totalCount","rows"]}}"# + "\n")
        let title = String(repeating: "y", count: 400)
        var count = 0
        while !daemon.log.text.contains("client is lagging") && count < 5000 {
            count += 1
            try writer.send(#"{"jsonrpc":"2.0","id":\#(count),"method":"todo.add","params":{"title":"\#(title)"}}"# + "\n")
            _ = try writer.readLine()
        }
        #expect(daemon.log.text.contains("client is lagging"))
        var sawLagging = false
        var reset: String?
        while reset == nil, let line = try slow.readLine(timeout: .seconds(20)) {
            if line.contains("connection.lagging") { sawLagging = true }
            if sawLagging && line.contains(#""reset":true"#) { reset = line }
        }
        #expect(sawLagging)
        let resetLine = try #require(reset)
        #expect(resetLine.contains(#""totalCount":\#(count)"#))
        try writer.send(#"{"jsonrpc":"2.0","id":"last","method":"todo.add","params":{"title":"after"}}"# + "\n")
        _ = try writer.readLine()
        let next = try #require(try slow.readLine())
        #expect(next.contains(#""totalCount":\#(count + 1)"#))
    }

    /// Only the daemon's own user may connect: another uid is refused by
    /// SO_PEERCRED even when file permissions would let it in.
    @Test(.enabled(if: getuid() == 0, "switching to another user needs root (CI runs as root)"))
    func aConnectionFromAnotherUserIsRefused() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        // Open the file permissions so only the uid check stands in the way.
        chmod(daemon.directory.path, 0o755)
        chmod(daemon.socket, 0o777)
        let output = OutputCollector()
        let script = """
            import socket; s = socket.socket(socket.AF_UNIX); s.connect('\(daemon.socket)'); s.settimeout(10)
            print(s.recv(4096).decode())
            """
        let child = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script],
            stdout: output, stderr: output)
        #expect(await child.waitForExit(timeout: .seconds(30)) == 0, "\(output.text)")
        await output.waitForEndOfFile()
        #expect(output.text.contains(#""name":"server.accessDenied""#), "\(output.text)")
        #expect(!output.text.contains("server.hello"))
        let own = try RawConnection(path: daemon.socket, readGreeting: true)
        #expect(own.greeting != nil)
    }
}
