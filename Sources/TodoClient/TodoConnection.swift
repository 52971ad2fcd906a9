import CanonicalJSON
import FoundationEssentials
import Glibc
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
import NIOFoundationEssentialsCompat
import NIOPosix
import TodoProtocol

/// A connection to todod: calls methods and receives pushed notifications.
///
/// Use it inside `TodoConnection.with(socketPath:)`, which connects, reads
/// replies and notifications in a child task while the body runs, and closes
/// the connection when the body returns.
///
/// Nothing is sent before todod's greeting (`server.hello`) has arrived: it
/// says how long a request line may be, so a request todod would answer with
/// `protocol.lineTooLong` (and a closed connection) is refused here instead,
/// unsent, with `ClientError.requestTooLong`. Waiting costs nothing that
/// matters: todod answers no request before it has greeted the connection.
public final class TodoConnection: Sendable {
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private let eventLoop: any EventLoop
    private let replyTimeout: TimeAmount
    private let state = NIOLockedValueBox(State())
    /// The limits from `server.hello` (nil if todod named none this client
    /// can read); failed when the connection is refused or ends before it.
    private let greeting: EventLoopPromise<ServerHello.Limits?>
    /// Every notification the daemon pushes, in order.
    public let notifications: AsyncStream<IncomingMessage>
    private let notificationInput: AsyncStream<IncomingMessage>.Continuation

    private struct State {
        var nextID: Int64 = 1
        var pending: [RequestID: EventLoopPromise<IncomingMessage>] = [:]
        var closed = false
        /// Replies received so far, and whether todod said it is stopping:
        /// together they tell whether anything sent here was carried out.
        var answered = 0
        var stopping = false

        /// Why a request cannot be (or was not) answered on a connection that
        /// ended. After `server.shutdown` todod has answered every request it
        /// read (PROTOCOL.md), so if it answered none, nothing sent here took
        /// effect and the exchange can be repeated on a new connection.
        var endError: ClientError {
            stopping && answered == 0 ? .stoppedBeforeAnswering : .connectionClosed
        }
    }

    private init(outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, eventLoop: any EventLoop, replyTimeout: TimeAmount) {
        self.outbound = outbound
        self.eventLoop = eventLoop
        self.replyTimeout = replyTimeout
        (notifications, notificationInput) = AsyncStream<IncomingMessage>.makeStream()
        let greeting = eventLoop.makePromise(of: ServerHello.Limits?.self)
        self.greeting = greeting
        // A todod that accepted and then never greets (wedged) is given as
        // long as a reply would be.
        let timeout = eventLoop.scheduleTask(in: replyTimeout) {
            greeting.fail(ClientError.timedOut(after: replyTimeout))
        }
        greeting.futureResult.whenComplete { _ in timeout.cancel() }
    }

    /// Connects to the daemon at `socketPath`, checks that it is this user's
    /// (or root's) before sending anything, runs `body`, and closes.
    /// A call whose reply does not come within `replyTimeout` fails with
    /// `ClientError.timedOut` rather than waiting forever on a wedged daemon.
    public static func with<Result: Sendable>(
        socketPath: String,
        replyTimeout: Duration = .seconds(30),
        _ body: @Sendable (TodoConnection) async throws -> Result
    ) async throws -> Result {
        let channel = try await DaemonLineChannel.connect(socketPath: socketPath)
        let underlyingChannel = channel.channel
        return try await channel.executeThenClose { inbound, outbound in
            let connection = TodoConnection(
                outbound: outbound,
                eventLoop: underlyingChannel.eventLoop,
                replyTimeout: .nanoseconds(Int64(replyTimeout.components.seconds) * 1_000_000_000)
            )
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await connection.readLoop(inbound) }
                // Closing ends the read loop for certain; cancellation alone
                // would depend on the inbound stream noticing it.
                defer {
                    underlyingChannel.close(promise: nil)
                    group.cancelAll()
                }
                return try await body(connection)
            }
        }
    }

    /// Calls `M` and returns its typed result, or throws the daemon's error.
    public func call<M: RPCMethod>(_ method: M.Type, _ params: M.Params) async throws -> M.Result {
        let reply = try await send { id in MessageEncoding.request(M.self, id: id, params: params) }
        switch reply {
        case .response(_, let payload):
            do {
                return try payload.result(M.Result.self)
            } catch {
                throw ClientError.malformedReply("\(error)")
            }
        case .failure(_, let error):
            throw ClientError.refused(error)
        case .notification:
            throw ClientError.malformedReply("a notification where a reply was expected")
        }
    }

    /// The longest request line todod takes (its greeting's `maxLineBytes`),
    /// nil if it named none: a client cuts long input (an import) to fit.
    public func maximumLineBytes() async throws -> Int? {
        try await greeting.futureResult.get()?.maxLineBytes
    }

    /// Sends any method with any parameters and returns the reply as it came
    /// (a response or an error), for `todoctl call`.
    public func callRaw(_ method: String, params: JSONValue?) async throws -> IncomingMessage {
        try await send { id in MessageEncoding.request(method: method, id: id, params: params) }
    }

    /// Waits for the greeting, encodes the request and checks its length
    /// against the greeting's `maxLineBytes`, registers a promise for the
    /// reply, then writes the request, then waits: the reply cannot arrive
    /// before there is somewhere to put it.
    private func send(_ encode: (RequestID) -> Data) async throws -> IncomingMessage {
        let limits = try await greeting.futureResult.get()
        // The connection can end between the greeting and here: todod may
        // greet, then say it is stopping and close, before this request is sent.
        let id = try state.withLockedValue { state throws(ClientError) in
            guard !state.closed else { throw state.endError }
            defer { state.nextID += 1 }
            return RequestID.number(state.nextID)
        }
        let line = encode(id)
        // todod measures a line without its newline.
        let length = line.count - 1
        if let limits, length > limits.maxLineBytes {
            throw ClientError.requestTooLong(bytes: length, limit: limits.maxLineBytes)
        }
        let reply = eventLoop.makePromise(of: IncomingMessage.self)
        let refusal = state.withLockedValue { state -> ClientError? in
            guard !state.closed else { return state.endError }
            state.pending[id] = reply
            return nil
        }
        if let refusal {
            reply.fail(refusal)  // a promise must not be dropped unfulfilled
            throw refusal
        }
        let timeout = eventLoop.scheduleTask(in: replyTimeout) { [state, replyTimeout] in
            state.withLockedValue { _ = $0.pending.removeValue(forKey: id) }
            reply.fail(ClientError.timedOut(after: replyTimeout))
        }
        defer { timeout.cancel() }
        // If the write fails the connection has ended: the read loop fails
        // the pending reply once it has read everything todod sent (maybe a
        // `server.shutdown` still on its way), which decides whether the
        // request can be repeated; deciding here, earlier, could miss it.
        try? await outbound.write(ByteBuffer(bytes: line))
        return try await reply.futureResult.get()
    }

    private func readLoop(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>) async {
        do {
            for try await line in inbound {
                let message: IncomingMessage
                do {
                    message = try IncomingMessage.parse(Data(buffer: line))
                } catch {
                    continue  // a line this client cannot read answers none of its requests
                }
                switch message {
                case .notification(let method, let payload):
                    if method == ServerShutdown.name { state.withLockedValue { $0.stopping = true } }
                    if method == ServerHello.name { greeting.succeed(try? payload.params(ServerHello.Params.self).limits) }
                    notificationInput.yield(message)
                case .response(let id, _), .failure(let id?, _):
                    state.withLockedValue { state in
                        state.answered += 1
                        return state.pending.removeValue(forKey: id)
                    }?.succeed(message)
                case .failure(nil, let error):
                    // An error the daemon could not tie to a request (e.g. a line too long)
                    // concerns all of them; one instead of the greeting (too many
                    // connections, another user's todod) refuses the connection.
                    greeting.fail(ClientError.refused(error))
                    let pending = state.withLockedValue { state in
                        defer { state.pending.removeAll() }
                        return state.pending.values
                    }
                    for reply in pending { reply.fail(ClientError.refused(error)) }
                }
            }
        } catch {}
        let (pending, error) = state.withLockedValue { state in
            state.closed = true
            defer { state.pending.removeAll() }
            return (Array(state.pending.values), state.endError)
        }
        for reply in pending { reply.fail(error) }
        // Ended before the greeting: nothing was sent (see `send`), so the
        // exchange can be repeated on a new connection, as when todod stops
        // before answering.
        greeting.fail(ClientError.stoppedBeforeAnswering)
        notificationInput.finish()
    }

    static func describeConnectError(_ error: any Error) -> String {
        if let error = error as? IOError {
            return String(cString: strerror(error.errnoCode))
        }
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first?.error as? IOError {
            return String(cString: strerror(first.errnoCode))
        }
        return "\(error)"
    }
}
