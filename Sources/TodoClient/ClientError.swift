import NIOCore
import TodoProtocol

/// Why a call to the daemon did not produce a result.
public enum ClientError: Error, CustomStringConvertible {
    /// Nothing accepts connections at the socket (daemon not running, wrong path).
    case daemonUnreachable(socketPath: String, reason: String)
    /// The socket is served by a process of another user (not root): nothing
    /// was sent to it.
    case untrustedServer(socketPath: String, uid: UInt32, user: String?)
    /// The daemon answered the request with an error.
    case refused(RPCError)
    /// The connection ended before the reply arrived.
    case connectionClosed
    /// todod said it was stopping (`server.shutdown`) before answering any
    /// request of this connection: none of them was carried out, so the
    /// whole exchange can be repeated on a new connection.
    case stoppedBeforeAnswering
    /// The request, encoded, is longer than the line limit todod gave in its
    /// greeting (`limits.maxLineBytes`), so it was not sent: todod would have
    /// answered `protocol.lineTooLong` and closed the connection. `bytes`
    /// counts the line without its newline, as todod does.
    case requestTooLong(bytes: Int, limit: Int)
    /// The daemon sent a line this client cannot read.
    case malformedReply(String)
    /// The daemon accepted the request but did not answer in time.
    case timedOut(after: TimeAmount)

    public var description: String {
        switch self {
        case .daemonUnreachable(let path, let reason):
            "cannot reach todod at \(path) (\(reason))"
        case .untrustedServer(let path, let uid, let user):
            "refusing to talk to \(path): it is served by uid \(uid)\(user.map { " (\($0))" } ?? ""), not by you or root, "
                + "so it is not your todod; nothing was sent. Use a socket in a directory only you can write"
        case .refused(let error):
            error.message
        case .connectionClosed:
            "todod closed the connection before answering"
        case .stoppedBeforeAnswering:
            "todod stopped before it read the request; nothing was changed"
        case .requestTooLong(let bytes, let limit):
            "request too long: \(bytes) bytes; todod reads lines of at most \(limit) bytes, so nothing was sent"
        case .malformedReply(let detail):
            "todod sent a reply this todoctl cannot read: \(detail)"
        case .timedOut(let after):
            "todod did not answer within \(after.nanoseconds / 1_000_000_000) s; see `journalctl --user-unit todod.service`"
        }
    }
}
