import CanonicalJSON
import FoundationEssentials
import NIOCore
import Synchronization
import TodoProtocol

#if canImport(Glibc)
import Glibc
#endif

/// A connection for a command that asks and exits (`todoctl add`, `ls`,
/// `done`, …): a blocking Unix socket, one request at a time, and nothing
/// started beside it.
///
/// Such a command is over in a few milliseconds, and most of them went to
/// starting what a long-lived client needs: SwiftNIO's event loop threads,
/// a channel pipeline, a read loop task. This speaks the same protocol with
/// plain system calls, with the same promises as `TodoConnection`: the
/// server's identity is checked before a byte is sent, a request longer than
/// todod reads is not sent, a reply that does not come within the timeout is
/// an error, and when todod says it is stopping before answering anything
/// the whole exchange may be repeated (`ClientError.stoppedBeforeAnswering`).
///
/// What the exchange keeps between calls (the bytes read past a reply, the
/// greeting's limits, the next id) is behind a lock, so the connection may
/// be handed to another task; a second call waits for the first to end.
public final class OneShotConnection: DaemonCalls, Sendable {
    private let session: Mutex<Session>

    private init(descriptor: Int32, replyTimeout: Duration) {
        session = Mutex(Session(descriptor: descriptor, replyTimeout: replyTimeout))
    }

    /// Connects to the daemon at `socketPath`, checks who serves it, reads
    /// its greeting, runs `body`, and closes.
    public static func with<Result: Sendable>(
        socketPath: String, replyTimeout: Duration = .seconds(30), _ body: (OneShotConnection) async throws -> Result
    ) async throws -> Result {
        let descriptor = try connect(to: socketPath)
        defer { close(descriptor) }
        try ServerIdentity.check(descriptor: descriptor, socketPath: socketPath)
        var sendTimeout = timeval(tv_sec: Int(replyTimeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
        return try await body(OneShotConnection(descriptor: descriptor, replyTimeout: replyTimeout))
    }

    public func maximumLineBytes() async throws -> Int? {
        try session.withLock { session in
            try session.readGreeting()
            return session.limits?.maxLineBytes
        }
    }

    /// A request this short is sent before todod's greeting has arrived,
    /// which saves waiting for it (and todod greets a client that sends at
    /// once without the moment it gives a readiness probe to leave); todod
    /// takes lines of a mebibyte.
    static let sentWithoutWaiting = 4096

    public func call<M: RPCMethod>(_ method: M.Type, _ params: M.Params) async throws -> M.Result {
        switch try session.withLock({ try $0.exchange { id in MessageEncoding.request(M.self, id: id, params: params) } }) {
        case .response(_, let payload):
            do { return try payload.result(M.Result.self) } catch { throw ClientError.malformedReply("\(error)") }
        case .failure(_, let error):
            throw ClientError.refused(error)
        case .notification:
            throw ClientError.malformedReply("a notification where a reply was expected")
        }
    }

    public func callRaw(_ method: String, params: JSONValue?) async throws -> IncomingMessage {
        try session.withLock { try $0.exchange { id in MessageEncoding.request(method: method, id: id, params: params) } }
    }

    private static func connect(to path: String) throws -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else {
            throw ClientError.daemonUnreachable(socketPath: path, reason: "the path is longer than a socket path may be (\(capacity - 1) bytes)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw ClientError.daemonUnreachable(socketPath: path, reason: String(cString: strerror(errno)))
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ClientError.daemonUnreachable(socketPath: path, reason: reason)
        }
        return descriptor
    }
}

/// One connection's exchange: the socket and what is read from it.
private struct Session {
    let descriptor: Int32
    let replyTimeout: Duration
    var buffer: [UInt8] = []
    /// How much of `buffer` is known to hold no newline.
    var scanned = 0
    /// Where reads land, made once: a view of 100,000 rows is 35 MB.
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    var limits: ServerHello.Limits?
    var greeted = false
    var nextID: Int64 = 1
    var answered = 0
    var stopping = false
    var ended = false

    init(descriptor: Int32, replyTimeout: Duration) {
        self.descriptor = descriptor
        self.replyTimeout = replyTimeout
    }

    /// Sends one request and returns todod's reply to it: its response, or
    /// its error (thrown only for an error tied to no request).
    mutating func exchange(_ encode: (RequestID) -> Data) throws -> IncomingMessage {
        let id = RequestID.number(nextID)
        nextID += 1
        let line = encode(id)
        if line.count > OneShotConnection.sentWithoutWaiting { try readGreeting() }
        // todod measures a line without its newline.
        if let limits, line.count - 1 > limits.maxLineBytes {
            throw ClientError.requestTooLong(bytes: line.count - 1, limit: limits.maxLineBytes)
        }
        guard !ended else { throw endError }
        try send(line)
        while true {
            let message = try readMessage()
            switch message {
            case .response(let replyID, _) where replyID == id, .failure(let replyID?, _) where replyID == id:
                answered += 1
                return message
            case .failure(nil, let error):
                throw ClientError.refused(error)
            default:
                continue  // a notification, or a reply to no request of this connection
            }
        }
    }

    /// Why nothing more can be asked: see `TodoConnection`'s rule.
    var endError: ClientError { stopping && answered == 0 ? .stoppedBeforeAnswering : .connectionClosed }

    /// Reads until todod's greeting, unless it came already.
    mutating func readGreeting() throws {
        while !greeted {
            switch try readMessage(endingAs: .stoppedBeforeAnswering) {
            case .notification(let name, _) where name == ServerShutdown.name:
                stopping = true
            case .failure(nil, let error):
                // Instead of the greeting: too many connections, another user's todod.
                throw ClientError.refused(error)
            default:
                continue
            }
        }
    }

    /// The next line todod sends that this client can read. The end of the
    /// connection throws `ending` (by default the rule of `endError`).
    mutating func readMessage(endingAs ending: ClientError? = nil) throws -> IncomingMessage {
        let deadline = ContinuousClock.now + replyTimeout
        while true {
            // Only bytes not yet looked at are searched: a reply of megabytes
            // arrives in many reads, and searching it whole after each was quadratic.
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(buffer[..<newline])
                buffer.removeSubrange(...newline)
                scanned = 0
                guard let message = try? IncomingMessage.parse(line) else {
                    throw ClientError.malformedReply(String(decoding: line.prefix(200), as: UTF8.self))
                }
                if case .notification(let name, let payload) = message {
                    if name == ServerShutdown.name { stopping = true }
                    if name == ServerHello.name {
                        greeted = true
                        limits = try? payload.params(ServerHello.Params.self).limits
                    }
                }
                return message
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw ClientError.timedOut(after: .seconds(replyTimeout.components.seconds)) }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1, 3_600_000))
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready >= 0 else { throw ClientError.connectionClosed }
            guard ready > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else {
                ended = true
                // Without a greeting todod did not register the connection, so
                // nothing sent on it was carried out and it can be repeated. (It
                // queues the greeting before carrying anything out; only a crash
                // between a commit and writing that greeting could leave a
                // request done and unanswered here.)
                throw ending ?? (greeted ? endError : .stoppedBeforeAnswering)
            }
            scanned = buffer.count
            buffer += chunk[..<count]
        }
    }

    /// Writes the whole line; if todod has gone, the read that follows tells
    /// why. A todod that reads nothing (stopped, wedged) fails it after the
    /// reply timeout (`SO_SNDTIMEO`, set on connecting).
    func send(_ line: Data) throws {
        let bytes = Array(line)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                throw ClientError.timedOut(after: .seconds(replyTimeout.components.seconds))
            }
            guard count > 0 else { return }
            written += count
        }
    }
}
