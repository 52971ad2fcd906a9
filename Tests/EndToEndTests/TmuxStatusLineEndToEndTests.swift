import Foundation
import Testing

/// The README's tmux status line, for real: a tmux client (inside a test
/// terminal) whose `status-right` runs `todoctl watch @work --format …`,
/// updated as another process edits, with no polling of todod.
@Suite struct TmuxStatusLineEndToEndTests {
    @Test func aTmuxStatusLineFollowsANamedView() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let socket = daemon.socket
        #expect(try await todoctl("view", "save", "work", "+work", socket: socket).status == 0)

        // The inner tmux's socket, in the daemon's folder: tmux leaves it when killed.
        let inner = daemon.directory.appendingPathComponent("tmux-status.sock").path
        let configuration = daemon.directory.appendingPathComponent("tmux.conf")
        try """
        set -g status-interval 1
        set -g status-right-length 60
        set -g status-right "#('\(Binaries.todoctl.path)' --socket '\(socket)' watch @work --format '{itemsLeft} · {overdueCount} overdue')"
        """.write(to: configuration, atomically: true, encoding: .utf8)
        defer {
            let kill = Process()
            kill.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
            kill.arguments = ["-S", inner, "kill-server"]
            try? kill.run()
            kill.waitUntilExit()
        }

        let terminal = try await TmuxSession(columns: 100, rows: 10)
        try await terminal.type("TMUX= tmux -S '\(inner)' -f '\(configuration.path)' new-session")
        func statusLine(_ screen: String) -> String { screen.split(separator: "\n").last.map(String.init) ?? "" }
        var screen = try await terminal.waitForScreen { statusLine($0).hasSuffix("0 items left · 0 overdue") }
        #expect(screen.met, "\(screen.screen)")

        _ = try await todoctl("add", "report", "+work", "due:1999-01-01", socket: socket)
        screen = try await terminal.waitForScreen { statusLine($0).hasSuffix("1 item left · 1 overdue") }
        #expect(screen.met, "\(screen.screen)")
        _ = try await todoctl("add", "unrelated", "+home", socket: socket)
        _ = try await todoctl("add", "slides", "+work", socket: socket)
        screen = try await terminal.waitForScreen { statusLine($0).hasSuffix("2 items left · 1 overdue") }
        #expect(screen.met, "\(screen.screen)")
        _ = try await todoctl("done", "1", socket: socket)
        screen = try await terminal.waitForScreen { statusLine($0).hasSuffix("1 item left · 0 overdue") }
        #expect(screen.met, "\(screen.screen)")

        // tmux goes away: its status-line job ends with it, not at the next
        // change (none comes), and is not left running under PID 1.
        #expect(Self.watchers(of: socket) == 1)
        let killed = try ChildProcess(URL(fileURLWithPath: "/usr/bin/tmux"), ["-S", inner, "kill-server"])
        #expect(await killed.waitForExit(timeout: .seconds(30)) == 0)
        let deadline = ContinuousClock.now + .seconds(30)
        while Self.watchers(of: socket) > 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(Self.watchers(of: socket) == 0, "the status line's todoctl watch outlived tmux")
    }

    /// How many `todoctl watch` processes run against `socket`.
    static func watchers(of socket: String) -> Int {
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return processes.filter { Int($0) != nil }.count { pid in
            guard let raw = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let words = raw.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.first?.hasSuffix("todoctl") == true && words.contains(socket) && words.contains("watch")
        }
    }
}
