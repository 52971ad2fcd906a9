import FoundationEssentials
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Who serves the socket todoctl connected to, as the kernel says
/// (`SO_PEERCRED`), and whether todoctl may talk to it.
///
/// A socket path proves nothing about who listens there: in a directory
/// other users can write, any of them can bind the path first and read
/// every title sent to it. todod itself only serves its own user, so
/// todoctl talks only to a server run by its own uid, or by root (who could
/// read the data anyway), and checks this before it sends a byte.
enum ServerIdentity {
    /// Laid out like Linux's `struct ucred`, which Glibc's module does not
    /// export (it needs `_GNU_SOURCE`): pid, uid, gid.
    struct Credentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// Throws `ClientError.untrustedServer` unless the peer of `channel` runs
    /// as this process's uid or as root.
    static func check(_ channel: any Channel, socketPath: String) async throws {
        guard let provider = channel as? any SocketOptionProvider else {
            throw ClientError.daemonUnreachable(socketPath: socketPath, reason: "cannot tell who serves it")
        }
        let peer: Credentials
        do {
            peer = try await provider.unsafeGetSocketOption(
                level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)
            ).get()
        } catch {
            // NIO closed the channel already: the server hung up (a todod
            // stopping for a restart) before this client sent anything, so the
            // whole exchange can be repeated on a new connection.
            throw ClientError.stoppedBeforeAnswering
        }
        try trust(peer, socketPath: socketPath)
    }

    /// The same check on a plain socket (`OneShotConnection`).
    static func check(descriptor: Int32, socketPath: String) throws {
        var peer = Credentials()
        var size = socklen_t(MemoryLayout<Credentials>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &peer, &size) == 0 else {
            // The server hung up before this client sent anything (a todod
            // stopping for a restart): the exchange can be repeated.
            throw ClientError.stoppedBeforeAnswering
        }
        try trust(peer, socketPath: socketPath)
    }

    private static func trust(_ peer: Credentials, socketPath: String) throws {
        guard peer.uid == geteuid() || peer.uid == 0 else {
            throw ClientError.untrustedServer(socketPath: socketPath, uid: peer.uid, user: userName(peer.uid))
        }
    }

    private static func userName(_ uid: UInt32) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }
}
