import Foundation
import Testing

/// The daemon's own timer fires reminders: a subscriber is told without
/// asking, and todoctl shows them.
@Suite struct ReminderEndToEndTests {
    @Test func aReminderIsPushedWhenItsTimeComes() async throws {
        let daemon = try DaemonProcess()
        daemon.arguments = ["--reminder-hours", "0.0005"]  // 1.8 seconds
        try await daemon.start()
        let watcher = try RawConnection(path: daemon.socket, readGreeting: true)
        try watcher.send(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe"}"# + "\n")
        _ = try watcher.readMessage()
        _ = try await todoctl("add", "call back", socket: daemon.socket)
        _ = try watcher.readMessage()  // the add itself

        let reminder = try watcher.readMessage(timeout: .seconds(30))
        let properties = try #require((reminder["params"] as? [String: Any])?["properties"] as? [String: Any])
        let alerts = try #require(properties["alerts"] as? [[String: Any]])
        #expect(alerts.first?["condition"] as? String == "waiting")
        #expect((alerts.first?["message"] as? String)?.hasPrefix("“call back” has waited for more than") == true)
        // Without a terminal, the listing is the list alone; the reminder goes to stderr.
        let listing = try await todoctl("ls", socket: daemon.socket)
        #expect(listing.stderr.contains("reminder: “call back” has waited"), "\(listing)")
        #expect(!listing.stdout.contains("reminder:"), "\(listing.stdout)")
        // On a terminal (script(1) gives it one), the reminder follows the list.
        let output = OutputCollector()
        let onTerminal = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/script"),
            ["-qec", "'\(Binaries.todoctl.path)' --socket '\(daemon.socket)' ls --color never", "/dev/null"], stdout: output)
        #expect(await onTerminal.waitForExit(timeout: .seconds(30)) == 0)
        await output.waitForEndOfFile()
        #expect(output.text.contains("1 item left\r\nreminder: “call back” has waited"), "\(output.text)")

        _ = try await todoctl("done", "1", socket: daemon.socket)
        #expect(!(try await todoctl("ls", socket: daemon.socket).stderr.contains("reminder:")))
    }
}
