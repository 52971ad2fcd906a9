import Foundation
import Testing

/// Replays the example exchange in Protocol/PROTOCOL.md against the real
/// daemon, so the spec cannot drift from what todod says.
@Suite struct ProtocolExampleTests {
    static let specification = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Protocol/PROTOCOL.md")

    @Test func theSpecificationsExampleIsWhatTododSays() async throws {
        let text = try String(contentsOf: Self.specification, encoding: .utf8)
        let example = try #require(text.components(separatedBy: "## Example").last?.components(separatedBy: "```").dropFirst().first)
        let lines = example.split(separator: "\n").map(String.init)
        #expect(lines.count(where: { $0.hasPrefix("← ") }) >= 5)

        let daemon = try DaemonProcess()
        try await daemon.start()
        let connection = try RawConnection(path: daemon.socket)
        for line in lines {
            if line.hasPrefix("→ ") {
                try connection.send(String(line.dropFirst(2)) + "\n")
            } else if line.hasPrefix("← ") {
                #expect(try connection.readLine() == String(line.dropFirst(2)))
            }
        }
    }
}
