import Foundation
import Testing

/// On a full disk todod starts, serves reads, refuses edits with
/// `store.writeFailed` and keeps serving; on SIGTERM it does not claim to
/// have saved what it could not. The disk is a real one: a 4 MiB tmpfs
/// filled to the last block.
@Suite struct FullDiskEndToEndTests {
    static let canMount = getuid() == 0 || ProcessInfo.processInfo.environment["CI"] == "true"

    @Test(.enabled(if: canMount, "mounting a small tmpfs needs root (CI runs as root, and there this test must run)"))
    func todoStartsServesReadsAndRefusesEditsOnAFullDisk() async throws {
        let disk = try SmallDisk()
        defer { disk.unmount() }
        let daemon = try DaemonProcess(dataDirectory: disk.path + "/data")
        try await daemon.start()
        for title in ["one", "two", "three"] {
            #expect(try await todoctl("add", title, socket: daemon.socket).status == 0)
        }
        #expect(try await daemon.terminate() == 0)

        try disk.fill()
        try await daemon.start()
        let client = try RawConnection(path: daemon.socket, readGreeting: true)
        try client.send(#"{"jsonrpc":"2.0","id":1,"method":"view.get"}"# + "\n")
        let view = try client.readMessage()
        let rows = try #require(view.result?["rows"] as? [[String: Any]], "\(view)")
        #expect(rows.compactMap { $0["title"] as? String } == ["one", "two", "three"], "\(view)")

        try client.send(#"{"jsonrpc":"2.0","id":2,"method":"todo.add","params":{"title":"no room"}}"# + "\n")
        let refused = try client.readMessage()
        #expect(refused.errorCode == -32002, "\(refused)")
        #expect(refused.errorName == "store.writeFailed", "\(refused)")

        // Still serving, and nothing of the refused edit shows.
        try client.send(#"{"jsonrpc":"2.0","id":3,"method":"view.get"}"# + "\n")
        let again = try client.readMessage()
        #expect((again.result?["rows"] as? [[String: Any]])?.count == 3, "\(again)")
        #expect(try await todoctl("ls", socket: daemon.socket).stdout == "view main · filter all · sort created\n1  [ ] one\n2  [ ] two\n3  [ ] three\n3 items left\n")

        #expect(try await daemon.terminate() == 0, "\(daemon.log.text)")
        #expect(!daemon.log.text.contains("everything saved"), "\(daemon.log.text)")
        #expect(daemon.log.text.contains("every acknowledged edit is on disk"), "\(daemon.log.text)")

        // Space back: edits work again and nothing was lost.
        try disk.emptyFill()
        try await daemon.start()
        #expect(try await todoctl("add", "room again", socket: daemon.socket).status == 0)
        #expect(try await todoctl("ls", socket: daemon.socket).stdout.hasPrefix("view main · filter all · sort created\n1  [ ] one\n2  [ ] two\n3  [ ] three\n4  [ ] room again\n"))
        #expect(try await daemon.terminate() == 0)
    }
}

/// A 4 MiB tmpfs mounted on a fresh directory, so "full" is real and quick.
private struct SmallDisk {
    let path: String

    init() throws {
        path = "/tmp/todod-full-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        do {
            try run("/bin/mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", path)
        } catch {
            // No disk, so no `unmount()` to come: the folder must not stay behind.
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }

    /// Writes zeros until the file system says ENOSPC.
    func fill() throws {
        let descriptor = open(path + "/fill", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw TestFailure("cannot create \(path)/fill") }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 4096)
        while true {
            let written = block.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == ENOSPC { break }
            if written < 0 && errno != EINTR { throw TestFailure("filling \(path): \(String(cString: strerror(errno)))") }
            if written == 0 { break }
        }
        // A partial last block could leave a few bytes; one more byte must fail.
        var statistics = statvfs()
        guard statvfs(path, &statistics) == 0, statistics.f_bavail == 0 else {
            throw TestFailure("\(path) is not full after filling it")
        }
    }

    func emptyFill() throws {
        try FileManager.default.removeItem(atPath: path + "/fill")
    }

    func unmount() {
        try? run("/bin/umount", "-l", path)
        try? FileManager.default.removeItem(atPath: path)
    }

    private func run(_ executable: String, _ arguments: String...) throws {
        let output = OutputCollector()
        let child = try ChildProcess(URL(fileURLWithPath: executable), arguments, stdout: output, stderr: output)
        guard let status = waitBriefly(for: child), status == 0 else {
            throw TestFailure("\(executable) \(arguments.joined(separator: " ")) failed: \(output.text)")
        }
    }

    /// Synchronous wait for a short command (mount, umount).
    private func waitBriefly(for child: ChildProcess) -> Int32? {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let status = child.exitStatus { return status }
            usleep(10_000)
        }
        return nil
    }
}
