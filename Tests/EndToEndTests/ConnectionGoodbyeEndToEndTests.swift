import Foundation
import Testing

/// `connection.goodbye` reaches the client it is for: the last line before
/// the daemon closes the connection, as PROTOCOL.md promises.
@Suite struct ConnectionGoodbyeEndToEndTests {
    /// A client sends hundreds of requests without reading, well past the
    /// hard limit, and reads only afterwards: what the socket already held
    /// comes first, then the goodbye, then the end of the stream. Another
    /// client is served all along; what the flooding one sends after its
    /// goodbye is not carried out. (When the stall clock closes a client
    /// that reads late depends on timing this test does not control:
    /// ConnectionOutboxGoodbyeTests moves a clock of its own for that.)
    @Test func aClientThatFloodsRequestsAndReadsAfterwardsGetsItsGoodbyeLast() async throws {
        let daemon = try DaemonProcess()
        daemon.arguments = ["--outbox-hard-limit", "1048576", "--stall-timeout", "30"]
        try await daemon.start()
        let other = try RawConnection(path: daemon.socket, readGreeting: true)
        try other.send(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":"kept"}}"# + "\n")
        #expect(try other.readLine()?.contains(#""id":1"#) == true)

        let flooding = try RawConnection(path: daemon.socket, readGreeting: true)
        for id in 1...400 {
            try flooding.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"rpc.describe"}"# + "\n")
        }
        #expect(await daemon.log.wait(timeout: .seconds(60)) { $0.contains("reason=outboxFull") })
        // Said goodbye, it is no longer served: an edit it sends now is not
        // carried out, since no reply could acknowledge it.
        try flooding.send(#"{"jsonrpc":"2.0","id":"late","method":"todo.add","params":{"title":"after the goodbye"}}"# + "\n")
        var lines: [String] = []
        while let line = try flooding.readLine(timeout: .seconds(60)) { lines.append(line) }
        let last = try #require(lines.last, "nothing came back, not even a goodbye")
        #expect(last.contains(#""method":"connection.goodbye""#), "the last of \(lines.count) lines: \(last.prefix(200))")
        #expect(last.contains(#""reason":"outboxFull""#))
        // Only the last line is a goodbye. (Replies to `rpc.describe` name the
        // notification too, so look at each line's method, not its text.)
        let methods = try lines.dropLast().map { line -> String? in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["method"] as? String
        }
        #expect(!methods.contains("connection.goodbye"), "\(methods.compactMap { $0 })")
        // Far fewer replies than requests: what was queued was dropped.
        #expect(lines.count < 100, "\(lines.count) lines")

        try other.send(#"{"jsonrpc":"2.0","id":2,"method":"server.status"}"# + "\n")
        let status = try #require(try other.readLine())
        #expect(status.contains(#""items":1"#), "the edit sent after the goodbye was carried out: \(status)")
    }
}
