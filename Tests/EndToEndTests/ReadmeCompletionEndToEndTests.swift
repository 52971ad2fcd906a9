import Foundation
import TestSupport
import Testing

/// The README's command that installs bash completion, run as a new user
/// would: in a home where no completion folder exists yet.
@Suite struct ReadmeCompletionEndToEndTests {
    @Test func theReadmesCompletionCommandWorksInAFreshHome() async throws {
        let readme = try String(
            contentsOf: ProtocolV1EndToEndTests.protocolDirectory.deletingLastPathComponent().appendingPathComponent("README.md"),
            encoding: .utf8)
        let line = try #require(
            readme.split(separator: "\n").first { $0.contains("todoctl completion bash >") }, "the README has no completion command")
        let command = String(line.split(separator: "#", maxSplits: 1)[0])
        let home = try TemporaryDirectory("home")
        let path = Binaries.todoctl.deletingLastPathComponent().path + ":/usr/bin:/bin"
        let output = OutputCollector()
        let shell = try ChildProcess(
            URL(fileURLWithPath: "/bin/bash"), ["-c", command], environment: ["HOME": home.path, "PATH": path],
            stdout: output, stderr: output)
        let status = await shell.waitForExit(timeout: .seconds(60))
        await output.waitForEndOfFile()
        #expect(status == 0, "\(command): \(output.text)")
        let script = FileManager.default.contents(atPath: home.file(".local/share/bash-completion/completions/todoctl"))
        #expect(String(decoding: script ?? Data(), as: UTF8.self).contains("complete"), "no completion script was written")
    }
}
