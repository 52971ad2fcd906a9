import Glibc
import NIOCore

/// Which local user opened a TCP connection to todod-web, told before it
/// sends a byte, so that another user's flood is counted apart from the
/// owner's tabs.
///
/// `SO_PEERCRED` answers only on Unix sockets. A loopback connection's
/// other end is a socket of this machine too, and the kernel knows whose:
/// it is asked for that one socket by its four-tuple over sock_diag
/// netlink (what `ss` uses), and, where netlink is not allowed, found in
/// `/proc/net/tcp` or `tcp6`. Inside a user namespace (the unit's
/// `PrivateUsers=`) another user's uid reads as the overflow uid, which is
/// just as much not the owner's.
public enum ConnectingUser {
    /// The uid that owns the socket at the other end of a connection whose
    /// ends are `remote` (its end) and `local` (ours); nil when it is not a
    /// socket of this machine's, or neither way answers.
    public static func uid(remote: SocketAddress, local: SocketAddress) -> uid_t? {
        guard let ends = Ends(remote: remote, local: local) else { return nil }
        return askKernel(ends) ?? readProcNet(ends)
    }

    /// Both ends' addresses as the kernel keeps them: 4 or 16 bytes in
    /// network order, and ports in host order.
    struct Ends {
        var family: Int32
        var peerAddress: [UInt8]
        var peerPort: UInt16
        var ourAddress: [UInt8]
        var ourPort: UInt16

        init?(remote: SocketAddress, local: SocketAddress) {
            switch (remote, local) {
            case (.v4(let peer), .v4(let ours)):
                family = AF_INET
                peerAddress = withUnsafeBytes(of: peer.address.sin_addr) { Array($0) }
                peerPort = UInt16(bigEndian: peer.address.sin_port)
                ourAddress = withUnsafeBytes(of: ours.address.sin_addr) { Array($0) }
                ourPort = UInt16(bigEndian: ours.address.sin_port)
            case (.v6(let peer), .v6(let ours)):
                family = AF_INET6
                peerAddress = withUnsafeBytes(of: peer.address.sin6_addr) { Array($0) }
                peerPort = UInt16(bigEndian: peer.address.sin6_port)
                ourAddress = withUnsafeBytes(of: ours.address.sin6_addr) { Array($0) }
                ourPort = UInt16(bigEndian: ours.address.sin6_port)
            default:
                return nil
            }
        }
    }

    // MARK: sock_diag

    /// One `SOCK_DIAG_BY_FAMILY` request for the peer's socket (linux/inet_diag.h):
    /// an exact lookup, not a dump, so it costs the same however many
    /// connections are open.
    static func askKernel(_ ends: Ends) -> uid_t? {
        let descriptor = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 4 /* NETLINK_SOCK_DIAG */)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // The kernel answers at once or not at all; never hold the event loop.
        var wait = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))

        var request = Bytes()
        request.native(UInt32(72))  // nlmsghdr: length,
        request.native(UInt16(20))  // SOCK_DIAG_BY_FAMILY,
        request.native(UInt16(1))  // NLM_F_REQUEST,
        request.native(UInt32(1))  // sequence,
        request.native(UInt32(0))  // port id
        request.bytes += [UInt8(ends.family), UInt8(IPPROTO_TCP), 0, 0]  // inet_diag_req_v2: family, protocol, extensions, pad
        request.native(UInt32.max)  // every state
        request.network(ends.peerPort)  // inet_diag_sockid, from the peer's side: sport,
        request.network(ends.ourPort)  // dport,
        request.bytes += padded(ends.peerAddress)  // src,
        request.bytes += padded(ends.ourAddress)  // dst,
        request.native(UInt32(0))  // any interface,
        request.native(UInt32.max)  // INET_DIAG_NOCOOKIE
        request.native(UInt32.max)
        // sockaddr_nl (Glibc's module leaves linux/netlink.h out): the family,
        // then a pad, a port id and groups that are all 0 for the kernel.
        var kernel = Bytes()
        kernel.native(UInt16(AF_NETLINK))
        kernel.bytes += [UInt8](repeating: 0, count: 10)
        let sent = request.bytes.withUnsafeBytes { bytes in
            kernel.bytes.withUnsafeBytes { address in
                sendto(descriptor, bytes.baseAddress, bytes.count, 0, address.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(address.count))
            }
        }
        guard sent == request.bytes.count else { return nil }

        var answer = [UInt8](repeating: 0, count: 1024)
        let received = answer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        // nlmsghdr (16), then inet_diag_msg: family, state, timer, retrans (4),
        // the socket id (48), expires, rqueue, wqueue (12), uid.
        let uidOffset = 16 + 4 + 48 + 12
        guard received >= uidOffset + 4, answer.loadNativeUInt16(at: 4) == 20 else { return nil }
        return answer.loadNativeUInt32(at: uidOffset)
    }

    private static func padded(_ address: [UInt8]) -> [UInt8] {
        address + [UInt8](repeating: 0, count: 16 - address.count)
    }

    // MARK: /proc/net

    /// The peer's line in `/proc/net/tcp` or `tcp6`: its local address is the
    /// peer's end, its remote address ours; the eighth field is the uid.
    static func readProcNet(_ ends: Ends) -> uid_t? {
        let peer = procNetAddress(ends.peerAddress, port: ends.peerPort)
        let ours = procNetAddress(ends.ourAddress, port: ends.ourPort)
        guard let file = fopen(ends.family == AF_INET ? "/proc/net/tcp" : "/proc/net/tcp6", "re") else { return nil }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let fields = String(cString: line).split(separator: " ")
            guard fields.count > 7, fields[1] == peer, fields[2] == ours else { continue }
            return uid_t(fields[7])
        }
        return nil
    }

    /// An address as the kernel prints it there: each 32-bit word of it as
    /// this machine holds it in memory, `%08X`, then the port, `%04X`.
    static func procNetAddress(_ address: [UInt8], port: UInt16) -> String {
        var text = ""
        for start in stride(from: 0, to: address.count, by: 4) {
            let word = address[start..<start + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            text += hex(word, digits: 8)
        }
        return text + ":" + hex(UInt32(port), digits: 4)
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// Bytes of a netlink request: its headers and counts in this machine's own
/// order, ports in network order.
private struct Bytes {
    var bytes: [UInt8] = []

    mutating func native<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
    }

    mutating func network<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}

extension [UInt8] {
    fileprivate func loadNativeUInt16(at offset: Int) -> UInt16 {
        self[offset..<offset + 2].withUnsafeBytes { $0.loadUnaligned(as: UInt16.self) }
    }

    fileprivate func loadNativeUInt32(at offset: Int) -> UInt32 {
        self[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }
}
