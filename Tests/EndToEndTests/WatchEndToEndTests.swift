import Foundation
import Testing

/// `todoctl watch` sees what other clients do, pushed, not polled.
@Suite struct WatchEndToEndTests {
    @Test func aWatcherSeesAnAddFromAnotherClient() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        _ = try await todoctl("add", "already there", socket: daemon.socket)

        let output = OutputCollector()
        let watch = try ChildProcess(Binaries.todoctl, ["--socket", daemon.socket, "watch"], stdout: output)
        defer { watch.signal(SIGTERM) }

        #expect(await output.wait { $0.contains("already there") && $0.contains("1 item left") }, "\(output.text)")
        _ = try await todoctl("add", "from elsewhere", socket: daemon.socket)
        #expect(await output.wait { $0.contains("2  [ ] from elsewhere") && $0.contains("2 items left") }, "\(output.text)")
        _ = try await todoctl("done", "1", socket: daemon.socket)
        #expect(await output.wait { $0.contains("1  [x] already there") }, "\(output.text)")
    }
}

/// `todoctl watch --events`: NDJSON for scripts, resuming across restarts.
@Suite struct WatchEventsEndToEndTests {
    /// The events printed so far, parsed (one JSON object per line).
    private func events(_ output: OutputCollector) -> [[String: Any]] {
        output.text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    private func body(_ event: [String: Any]) -> [String: Any] {
        (event["params"] as? [String: Any]) ?? [:]
    }

    @Test func resumesAfterARestartAndResetsWhenHistoryIsLost() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        _ = try await todoctl("add", "before the watcher", socket: daemon.socket)

        let output = OutputCollector()
        let messages = OutputCollector()
        let watch = try ChildProcess(
            Binaries.todoctl, ["--socket", daemon.socket, "watch", "--events"], stdout: output, stderr: messages)
        defer { watch.signal(SIGTERM) }

        // The greeting, then the whole list, as a reset event.
        #expect(await output.wait { $0.contains("before the watcher") }, "\(output.text)")
        #expect(events(output).first?["method"] as? String == "server.hello")
        let first = try #require(events(output).dropFirst().first)
        #expect(first["method"] as? String == "view.changed")
        #expect(body(first)["reset"] as? Bool == true)
        let startRevision = try #require(body(first)["revision"] as? Int)

        _ = try await todoctl("add", "while watching", socket: daemon.socket)
        #expect(await output.wait { $0.contains("while watching") }, "\(output.text)")

        // Stop the watcher, restart todod cleanly, and make an edit the
        // watcher cannot see live: it must be replayed, not reset.
        watch.signal(SIGSTOP)
        #expect(try await daemon.terminate() == 0)
        try await daemon.start()
        _ = try await todoctl("add", "while away", socket: daemon.socket)
        watch.signal(SIGCONT)
        #expect(await messages.wait { $0.contains("reconnected; caught up 1 missed change") }, "\(messages.text)")
        #expect(await output.wait { $0.contains("while away") }, "\(output.text)")
        let changes = events(output).filter { $0["method"] as? String == "view.changed" }
        #expect(changes.dropFirst().allSatisfy { body($0)["reset"] as? Bool == false }, "\(output.text)")
        // Gap-free: one revision per change, across the restart.
        #expect(changes.compactMap { body($0)["revision"] as? Int } == Array(startRevision...(startRevision + 2)), "\(output.text)")
        // The shutdown notice itself is an event line too.
        #expect(events(output).contains { $0["method"] as? String == "server.shutdown" }, "\(output.text)")

        // After a kill, the history is gone (the epoch changes): a reset with everything.
        try await daemon.kill()
        try await daemon.start()
        #expect(await messages.wait { $0.contains("could not replay what was missed (epochChanged)") }, "\(messages.text)")
        #expect(
            await output.wait { _ in
                let changes = self.events(output).filter { $0["method"] as? String == "view.changed" }
                let last = changes.last.map(self.body) ?? [:]
                let reset = (last["rows"] as? [[String: Any]])?.first
                return last["reset"] as? Bool == true && (reset?["rows"] as? [Any])?.count == 3
            }, "\(output.text)")
        _ = try await todoctl("add", "after the reset", socket: daemon.socket)
        #expect(await output.wait { $0.contains("after the reset") }, "\(output.text)")
    }

    /// `watch --events` prints the lines in the order todod sent them: the
    /// greeting first, then the subscription's first state.
    @Test func eventsStartWithTheGreeting() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        _ = try await todoctl("add", "one", socket: daemon.socket)
        let words = [Binaries.todoctl.path, "--socket", daemon.socket, "watch", "--events", "--reconnect-seconds", "1"]
        let output = OutputCollector()
        let shell = try ChildProcess(
            URL(fileURLWithPath: "/bin/bash"), ["-c", words.map { "'\($0)'" }.joined(separator: " ") + " | head -2"], stdout: output)
        #expect(await shell.waitForExit(timeout: .seconds(60)) == 0)
        await output.waitForEndOfFile()
        let lines = output.text.split(separator: "\n")
        #expect(lines.count == 2, "\(output.text)")
        #expect(lines.first?.contains(#""method":"server.hello""#) == true, "\(output.text)")
        #expect(lines.last?.contains(#""method":"view.changed""#) == true, "\(output.text)")
    }
}

/// A watch of a named view ends when the view is removed, whatever it
/// shows: the list, or a status line.
@Suite struct WatchOfARemovedViewEndToEndTests {
    @Test(arguments: [[] as [String], ["--format", "{itemsLeft} left"]])
    func aWatchOfARemovedViewEndsSayingSo(_ options: [String]) async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        _ = try await todoctl("add", "paint the shed", "pro:home", socket: daemon.socket)
        _ = try await todoctl("view", "save", "home", "project:home", socket: daemon.socket)

        let output = OutputCollector()
        let messages = OutputCollector()
        let watch = try ChildProcess(
            Binaries.todoctl, ["--socket", daemon.socket, "watch", "@home"] + options, stdout: output, stderr: messages)
        defer { watch.signal(SIGTERM) }
        #expect(await output.wait { $0.contains("1 item left") || $0.contains("1 left") }, "\(output.text)")

        #expect(try await todoctl("view", "rm", "home", socket: daemon.socket).stdout == "removed view home\n")
        #expect(await watch.waitForExit(timeout: .seconds(30)) == 66, "\(messages.text)")
        #expect(messages.text.contains(#"The view "home" was removed; this subscription has ended."#), "\(messages.text)")
    }
}
