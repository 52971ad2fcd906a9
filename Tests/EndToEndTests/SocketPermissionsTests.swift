import Foundation
import Testing

/// When todod binds its own socket, no other user can reach it: the directory
/// it creates is 0700 and the socket 0600.
@Suite struct SocketPermissionsTests {
    @Test func theSocketAndItsDirectoryArePrivate() async throws {
        let daemon = try DaemonProcess(socketSubdirectory: "run/todod")
        try await daemon.start()
        let socketAttributes = try FileManager.default.attributesOfItem(atPath: daemon.socket)
        let directory = (daemon.socket as NSString).deletingLastPathComponent
        let directoryAttributes = try FileManager.default.attributesOfItem(atPath: directory)
        #expect((socketAttributes[.posixPermissions] as? Int) == 0o600)
        #expect((directoryAttributes[.posixPermissions] as? Int) == 0o700)
        #expect(try await todoctl("ls", socket: daemon.socket).status == 0)
    }

    /// A socket directory that other users can write is refused, sticky or
    /// not: there someone else can take the socket's place. Exit 77 and one
    /// line that names the directory, its mode and owner, and what to do.
    @Test(arguments: [0o1777, 0o770, 0o702])
    func aSocketDirectoryOthersCanWriteIsRefused(mode: Int) async throws {
        try await expectRefusal(mode: mode, owner: nil)
    }

    /// Likewise a directory that belongs to another user, whatever its mode.
    @Test(.enabled(if: getuid() == 0, "giving a directory to another user needs root (CI runs as root)"))
    func aSocketDirectoryOfAnotherUserIsRefused() async throws {
        try await expectRefusal(mode: 0o700, owner: 65534)
    }

    private func expectRefusal(mode: Int, owner: uid_t?) async throws {
        let daemon = try DaemonProcess(socketSubdirectory: "shared")
        let directory = (daemon.socket as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        chmod(directory, mode_t(mode))
        if let owner { chown(directory, owner, owner) }
        let status = try await daemon.startExpectingRefusal()
        #expect(status == 77, "\(daemon.log.text)")
        // One line says it all (the rest of the log is todod's debug output).
        let refusal = daemon.log.text.split(separator: "\n").filter { $0.contains("critical") }
        #expect(refusal.count == 1, "\(daemon.log.text)")
        #expect(
            refusal.first?.contains(
                "refusing to serve in \(directory) (mode \(String(mode, radix: 8)), owner uid \(owner ?? getuid()))") == true,
            "\(daemon.log.text)")
        #expect(refusal.first?.contains("pass a --socket in a directory only you can write") == true, "\(daemon.log.text)")
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
    }
}
