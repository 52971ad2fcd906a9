import Foundation
import Glibc
import Testing
import TodoClient
import TodoProtocol

/// A server that sends one error line in place of the greeting and hangs up
/// once the client sends something, as todod does when it refuses a
/// connection (too many, another user's, a todod that will not start): a
/// request made after the refusal came is told that refusal, not merely
/// that the connection closed.
@Suite struct RefusedConnectionTests {
    @Test func aRequestAfterTheHangUpIsToldTheRefusal() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("todod-refused-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.sock").path
        let listener = try Self.listen(at: path)
        defer { close(listener) }
        let refusal = RPCError.badConfiguration("todod.conf line 1: log-level must be one of …")
        let line = MessageEncoding.error(id: nil, refusal)
        // The server: accept, say no, and hang up when the client sends.
        let said = Task.detached { () -> Int32 in
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return client }
            _ = line.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            return client
        }
        let hungUp = Task.detached {
            let client = await said.value
            var byte: UInt8 = 0
            _ = read(client, &byte, 1)
            close(client)
        }
        do {
            _ = try await TodoConnection.with(socketPath: path) { daemon in
                _ = await said.value
                try await Task.sleep(for: .milliseconds(50))  // the refusal has come
                return try await daemon.call(ServerStatus.self, NoParams())
            }
            Issue.record("the call was answered")
        } catch ClientError.refused(let error) {
            #expect(error == refusal)
        }
        await hungUp.value
    }

    private static func listen(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() where index < buffer.count - 1 { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, Glibc.listen(descriptor, 4) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return descriptor
    }
}
