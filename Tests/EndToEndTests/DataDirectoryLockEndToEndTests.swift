import Foundation
import Testing

/// One todod per data directory: a second one, on another socket, refuses to
/// start (exit 75) and names the directory and the first one's pid, however
/// its socket arrives; the first keeps every item.
@Suite struct DataDirectoryLockEndToEndTests {
    @Test func aSecondDaemonOnTheSameDataRefusesToStart() async throws {
        let first = try DaemonProcess()
        try await first.start()
        #expect(try await todoctl("add", "from the first", socket: first.socket).status == 0)

        let second = try DaemonProcess(dataDirectory: first.dataDirectory)
        let status = try await second.startExpectingRefusal()
        #expect(status == 75, "\(second.log.text)")
        let lines = second.log.text.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(second.log.text)")
        let pid = try #require(first.pid)
        #expect(second.log.text.contains("is using the data directory \(first.dataDirectory)"), "\(second.log.text)")
        #expect(second.log.text.contains("(pid \(pid))"), "\(second.log.text)")

        #expect(try await todoctl("add", "still the first", socket: first.socket).status == 0)
        let listed = try await todoctl("ls", socket: first.socket)
        #expect(listed.stdout == "view main · filter all · sort created\n1  [ ] from the first\n2  [ ] still the first\n2 items left\n", "\(listed.stdout)")
    }

    /// Under socket activation the lock is taken all the same: it is part of
    /// todod's start, not of binding a socket.
    @Test func aSocketActivatedSecondDaemonRefusesToo() async throws {
        let first = try DaemonProcess()
        try await first.start()
        let activatedSocket = first.directory.appendingPathComponent("activated.sock").path
        let log = OutputCollector()
        // systemd-socket-activate listens, and on the first connection execs
        // todod with the socket passed the way systemd passes it.
        let second = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/systemd-socket-activate"),
            ["-l", activatedSocket, "--", Binaries.todod.path, "--data-dir", first.dataDirectory, "--config", "/dev/null"],
            stdout: log, stderr: log)
        defer { second.signal(SIGKILL) }
        let probe = try #require(await connection(to: activatedSocket), "systemd-socket-activate never listened: \(log.text)")
        defer { probe.close() }
        let status = await second.waitForExit(timeout: .seconds(30))
        await log.waitForEndOfFile()
        #expect(status == 75, "\(log.text)")
        #expect(log.text.contains("is using the data directory \(first.dataDirectory)"), "\(log.text)")
        #expect(try await todoctl("ls", socket: first.socket).status == 0)
    }

    /// The lock goes with the process, however it ends: after SIGKILL the next
    /// todod starts at once.
    @Test func aKilledDaemonLeavesNoLockBehind() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        try await daemon.kill()
        try await daemon.start()
        #expect(try await todoctl("ls", socket: daemon.socket).status == 0)
    }

    /// A connection to the socket once it accepts one. Its file appears at
    /// bind(), before listen(): a connection in between is refused (as CI
    /// once found), so refusals are retried, not taken as the answer.
    private func connection(to path: String) async -> RawConnection? {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let connection = try? RawConnection(path: path) { return connection }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}
