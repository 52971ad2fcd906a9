import Foundation
import Testing

/// `todoctl watch` ends when nobody reads it any more, at once, not at the
/// next change and not never: no change comes in these tests.
@Suite struct WatchReaderGoneEndToEndTests {
    /// `todoctl watch … | head -N` in bash with pipefail: head reads its
    /// lines and leaves; watch must end with SIGPIPE's status (141), as
    /// `cat` would, well within the time limit.
    @Test(arguments: [
        ["watch"], ["watch", "--events"], ["watch", "--format", "{itemsLeft}"],
    ])
    func aWatchWhosePipeIsClosedEnds(arguments: [String]) async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        _ = try await todoctl("add", "one", socket: daemon.socket)
        // If it does not end, it is not left behind for long either: once
        // the test's todod is gone, it gives up after a second.
        let command = [Binaries.todoctl.path, "--socket", daemon.socket] + arguments + ["--reconnect-seconds", "1"]
        let words = command.map { "'\($0)'" }.joined(separator: " ")
        let output = OutputCollector()
        let shell = try ChildProcess(
            URL(fileURLWithPath: "/bin/bash"), ["-c", "set -o pipefail; \(words) | head -1"], stdout: output, stderr: output)
        let status = await shell.waitForExit(timeout: .seconds(60))
        if status == nil { shell.signal(SIGKILL) }
        await output.waitForEndOfFile()
        #expect(status == 141, "todoctl \(arguments.joined(separator: " ")) | head -1 ended with \(String(describing: status)): \(output.text)")
        #expect(!output.text.isEmpty)
    }
}
