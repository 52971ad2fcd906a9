import CSystemd

/// The listening sockets systemd passed to this process (`sd_listen_fds`).
///
/// With `todod.socket`, systemd binds the socket itself, keeps it open across
/// restarts, and hands it over on start; connections that arrive while the
/// daemon is down wait in its backlog instead of being refused.
public enum SocketActivation {
    /// A listening Unix stream socket passed by systemd, or `nil` when the
    /// process was not socket-activated. The `LISTEN_*` variables are removed
    /// so child processes do not mistake them for their own.
    ///
    /// Throws when systemd passed something todod cannot serve: more than one
    /// socket, or one that is not a listening Unix stream socket.
    public static func passedUnixSocket() throws(SocketActivationError) -> Int32? {
        let count = sd_listen_fds(1)
        if count < 0 {
            throw .listenFDsFailed(errno: -count)
        }
        if count == 0 {
            return nil
        }
        guard count == 1 else {
            throw .unexpectedSocketCount(Int(count))
        }
        let descriptor = SD_LISTEN_FDS_START
        guard sd_is_socket_unix(descriptor, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else {
            throw .notAListeningUnixStreamSocket
        }
        return descriptor
    }

    /// Every listening stream socket systemd passed (todod-web.socket listens
    /// on 127.0.0.1 and ::1), or an empty list when not socket-activated.
    public static func passedStreamSockets() throws(SocketActivationError) -> [Int32] {
        let count = sd_listen_fds(1)
        if count < 0 {
            throw .listenFDsFailed(errno: -count)
        }
        let descriptors = (0..<count).map { SD_LISTEN_FDS_START + $0 }
        for descriptor in descriptors where sd_is_socket(descriptor, AF_UNSPEC, Int32(SOCK_STREAM.rawValue), 1) <= 0 {
            throw .notAListeningStreamSocket(descriptor)
        }
        return descriptors
    }
}

public enum SocketActivationError: Error, CustomStringConvertible {
    case listenFDsFailed(errno: Int32)
    case unexpectedSocketCount(Int)
    case notAListeningUnixStreamSocket
    case notAListeningStreamSocket(Int32)

    public var description: String {
        switch self {
        case .listenFDsFailed(let errno):
            "reading the sockets passed by systemd failed (errno \(errno))"
        case .unexpectedSocketCount(let count):
            "systemd passed \(count) sockets; todod.socket must declare exactly one ListenStream="
        case .notAListeningUnixStreamSocket:
            "the socket passed by systemd is not a listening Unix stream socket; check ListenStream= in todod.socket"
        case .notAListeningStreamSocket(let descriptor):
            "the socket systemd passed as fd \(descriptor) is not a listening stream socket; check ListenStream= in the socket unit"
        }
    }
}
