import Foundation
import TestSupport

/// A real terminal for a test: a detached tmux session on its own server
/// socket, driven with `send-keys` and read with `capture-pane`.
final class TmuxSession {
    /// The server's socket: in a folder of the session's own, not in
    /// /tmp/tmux-UID, because tmux leaves the socket file when its server is
    /// killed. Under /tmp, whatever TMPDIR says: the path must stay short.
    private let folder: TemporaryDirectory
    private var socket: String { folder.file("tmux.sock") }
    let name = "t"

    /// Starts `bash --norc` in a `columns`×`rows` terminal.
    init(columns: Int = 80, rows: Int = 24) async throws {
        folder = try TemporaryDirectory("tmux", in: "/tmp")
        try await tmux("-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-s", name, "bash --norc")
    }

    deinit {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
        process.arguments = ["-S", socket, "kill-server"]
        try? process.run()
        process.waitUntilExit()
    }

    /// Types `text` and presses Enter.
    func type(_ text: String) async throws {
        try await tmux("send-keys", "-t", name, "-l", text)
        try await tmux("send-keys", "-t", name, "Enter")
    }

    /// Presses keys by tmux's names ("j", "Space", "C-c", "Up").
    func press(_ keys: String...) async throws {
        try await tmux(["send-keys", "-t", name] + keys)
    }

    func resize(columns: Int, rows: Int) async throws {
        try await tmux("resize-window", "-t", name, "-x", "\(columns)", "-y", "\(rows)")
    }

    /// What the terminal shows now, one string per line.
    func screen() async throws -> String {
        try await tmux("capture-pane", "-p", "-t", name)
    }

    /// Waits (up to 20 s) until the screen satisfies `condition`; returns the last screen.
    func waitForScreen(_ condition: (String) -> Bool) async throws -> (met: Bool, screen: String) {
        let deadline = ContinuousClock.now + .seconds(20)
        var last = ""
        while ContinuousClock.now < deadline {
            last = try await screen()
            if condition(last) { return (true, last) }
            try await Task.sleep(for: .milliseconds(50))
        }
        return (false, last)
    }

    @discardableResult
    private func tmux(_ arguments: String...) async throws -> String {
        try await tmux(arguments)
    }

    @discardableResult
    private func tmux(_ arguments: [String]) async throws -> String {
        let output = OutputCollector()
        let errors = OutputCollector()
        let child = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/tmux"), ["-S", socket] + arguments, stdout: output, stderr: errors)
        guard let status = await child.waitForExit(timeout: .seconds(20)), status == 0 else {
            throw TestFailure("tmux \(arguments.joined(separator: " ")) failed: \(errors.text)")
        }
        await output.waitForEndOfFile()
        return output.text
    }
}
