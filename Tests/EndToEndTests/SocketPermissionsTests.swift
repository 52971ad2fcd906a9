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
}
