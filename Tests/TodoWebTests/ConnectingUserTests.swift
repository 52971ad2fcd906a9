import Glibc
import NIOCore
import Testing

@testable import TodoWeb

/// Real loopback connections, told apart by the uid that opened them: both
/// ways of asking the kernel, each on its own.
@Suite struct ConnectingUserTests {
    /// A listening socket and a client connected to it; the ends as the
    /// server sees them.
    struct Connection {
        let listener: Int32
        let client: Int32
        let server: Int32
        let remote: SocketAddress
        let local: SocketAddress

        init(ipv6: Bool) throws {
            let family = ipv6 ? AF_INET6 : AF_INET
            let any = try ipv6 ? SocketAddress(ipAddress: "::1", port: 0) : SocketAddress(ipAddress: "127.0.0.1", port: 0)
            listener = socket(family, Int32(SOCK_STREAM.rawValue), 0)
            try Self.bind(listener, any)
            #expect(listen(listener, 4) == 0)
            let bound = try Self.name(listener, getsockname)
            let client = socket(family, Int32(SOCK_STREAM.rawValue), 0)
            _ = bound.withSockAddr { address, size in connect(client, address, socklen_t(size)) }
            self.client = client
            server = accept(listener, nil, nil)
            #expect(server >= 0)
            remote = try Self.name(server, getpeername)
            local = try Self.name(server, getsockname)
        }

        func close() {
            for descriptor in [client, server, listener] { Glibc.close(descriptor) }
        }

        static func bind(_ descriptor: Int32, _ address: SocketAddress) throws {
            let result = address.withSockAddr { Glibc.bind(descriptor, $0, socklen_t($1)) }
            guard result == 0 else { throw SocketAddressError.unsupported }
        }

        static func name(
            _ descriptor: Int32, _ call: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
        ) throws -> SocketAddress {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let result = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(descriptor, $0, &length) } }
            guard result == 0 else { throw SocketAddressError.unsupported }
            switch Int32(storage.ss_family) {
            case AF_INET:
                return withUnsafeBytes(of: storage) { SocketAddress($0.loadUnaligned(as: sockaddr_in.self), host: "") }
            case AF_INET6:
                return withUnsafeBytes(of: storage) { SocketAddress($0.loadUnaligned(as: sockaddr_in6.self), host: "") }
            default:
                throw SocketAddressError.unsupported
            }
        }
    }

    @Test(arguments: [false, true]) func theKernelNamesTheUserAtTheOtherEnd(ipv6: Bool) throws {
        let connection = try Connection(ipv6: ipv6)
        defer { connection.close() }
        let ends = try #require(ConnectingUser.Ends(remote: connection.remote, local: connection.local))
        // sock_diag may be refused (a sandbox's RestrictAddressFamilies=); then /proc answers alone.
        if let uid = ConnectingUser.askKernel(ends) { #expect(uid == geteuid()) }
        #expect(ConnectingUser.readProcNet(ends) == geteuid())
        #expect(ConnectingUser.uid(remote: connection.remote, local: connection.local) == geteuid())
    }

    @Test func anEndThatIsNoSocketOfThisMachinesIsNobodys() throws {
        let connection = try Connection(ipv6: false)
        defer { connection.close() }
        // The same ends with the peer's port changed: no socket has them.
        guard case .v4(let peer) = connection.remote else { Issue.record("not IPv4"); return }
        var raw = peer.address
        raw.sin_port = raw.sin_port &+ 1
        let stranger = SocketAddress(raw, host: "127.0.0.1")
        #expect(ConnectingUser.uid(remote: stranger, local: connection.local) == nil)
    }

    @Test func addressesAreSpelledAsProcNetSpellsThem() {
        #expect(ConnectingUser.procNetAddress([127, 0, 0, 1], port: 8636) == "0100007F:21BC")
        #expect(ConnectingUser.procNetAddress([UInt8](repeating: 0, count: 15) + [1], port: 80) == "00000000000000000000000001000000:0050")
    }
}
