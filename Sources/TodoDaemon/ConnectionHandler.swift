import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
import TodoProtocol

/// One client connection, as a channel handler: reads request lines,
/// parses each once, hands a read burst's requests to the state owner in one
/// go, and writes what the owner queued in the connection's outbox with one
/// flush per burst.
///
/// No task per connection, and no thread hop: connections are served on the
/// owner's own event loop, so handing a burst over and writing the replies
/// are tasks on the same thread.
final class ConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Numbered once served (see `channelActive`); 0 until then.
    private(set) var id = 0
    private let nextID: @Sendable () -> Int
    private let owner: ListOwner
    private let configuration: DaemonConfiguration
    private let greeting: @Sendable (_ connection: Int, _ epoch: String, _ revision: Int) -> Data
    private let logger: Logger
    private var outbox: ConnectionOutbox?
    private var context: ChannelHandlerContext?
    /// Requests of the current read burst, handed over at its end.
    private var burst: [ListOwner.Submission] = []
    /// No more lines are carried out: the client finished, broke a limit,
    /// was said goodbye (its lines are still read, and dropped), or the
    /// daemon stops.
    private var stoppedReading = false
    private var lastWrite: EventLoopFuture<Void>?
    private var outputClosed = false
    /// Bytes handed to the socket and not yet written.
    private var bytesInFlight = 0
    private var stallCheck: RepeatedTask?
    /// The connection ended before it was registered: ended right after.
    private var pendingEnd: Data??

    init(
        owner: ListOwner, configuration: DaemonConfiguration, nextID: @escaping @Sendable () -> Int,
        greeting: @escaping @Sendable (_ connection: Int, _ epoch: String, _ revision: Int) -> Data, logger: Logger
    ) {
        self.nextID = nextID
        self.owner = owner
        self.configuration = configuration
        self.greeting = greeting
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// A connection is numbered and greeted a moment after it opens, once
    /// the loop has read what was already there: a readiness probe that
    /// connected and left at once is not counted, so the first client that
    /// stays is connection 1. A client that sends a request at once (todoctl
    /// does not wait for the greeting) is no probe, and is registered then.
    func channelActive(context: ChannelHandlerContext) {
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: .milliseconds(1)) {
            guard bound.value.context?.channel.isActive == true else { return }
            bound.value.register()
        }
        context.fireChannelActive()
    }

    private func register() {
        guard let context, id == 0 else { return }
        id = nextID()
        logger.debug("client connected", metadata: ["client": "\(id)"])
        let logger = self.logger
        let owner = self.owner
        let loop = context.eventLoop
        let wake = NIOLoopBound(self, eventLoop: loop)
        let outbox = ConnectionOutbox(
            connectionID: id,
            limits: .init(
                softBytes: configuration.outboxSoftLimit, hardBytes: configuration.outboxHardLimit,
                stallTimeout: .milliseconds(Int64(configuration.stallTimeout * 1000))),
            drained: { connection in owner.resync(connection: connection) },
            saidGoodbye: { connection, reason in
                logger.warning(
                    "disconnecting a slow client", metadata: ["client": "\(connection)", "reason": "\(reason.rawValue)"])
                loop.execute { wake.value.ignoreFurtherLines() }
            },
            startedLagging: { connection, pending in
                logger.notice(
                    "client is lagging; coalescing its events", metadata: ["client": "\(connection)", "pending": "\(pending)"])
            },
            wake: { loop.execute { wake.value.writeQueued() } })
        self.outbox = outbox
        let (id, greeting) = (self.id, self.greeting)
        owner.connect(outbox) { epoch, revision in greeting(id, epoch, revision) }
        for index in burst.indices { burst[index].connection = id }
        handOver()
        if let pendingEnd { owner.end(id, lastLine: pendingEnd) }
        // A few checks per stall timeout: first a goodbye is queued, then,
        // if even that cannot be written, the connection is closed.
        let interval = TimeAmount.milliseconds(max(50, min(1000, Int64(configuration.stallTimeout * 250))))
        stallCheck = loop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            if outbox.checkStall() == .close { wake.value.context?.close(promise: nil) }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !stoppedReading else { return }
        let line = unwrapInboundIn(data)
        // The decoder's own bound is loose (a line that arrives whole is
        // decoded however long); this one is exact.
        guard line.readableBytes <= configuration.maximumLineLength else {
            tooLong()
            return
        }
        // Read in place: what the request keeps of the line, it copies.
        let parsed = line.withUnsafeReadableBytes { IncomingLine.parse($0) }
        if case .blank = parsed { return }
        burst.append(ListOwner.Submission(connection: id, line: parsed))  // numbered on registering, if not yet
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if id == 0 && !burst.isEmpty { register() }
        handOver()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            // The client sent its last line: answer everything, then close.
            // (If this connection had already said its last line, it closes now.)
            if stoppedReading && outputClosed { context.close(promise: nil) }
            stopReading(lastLine: nil)
        } else if case ChannelEvent.outputClosed = event {
            outputClosed = true
            context.fireUserInboundEventTriggered(event)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case is ByteToMessageDecoderError where stoppedReading, is PartialLineTimeoutHandler.Timeout where stoppedReading:
            // The rest of a refused line, or a line from a client said
            // goodbye: nothing of it is carried out, and the connection
            // is already on its way to closing.
            break
        case is ByteToMessageDecoderError.PayloadTooLargeError:
            tooLong()
        case is PartialLineTimeoutHandler.Timeout:
            logger.warning("client left a line unfinished; closing", metadata: ["client": "\(id)", "seconds": "\(configuration.lineTimeout)"])
            stopReading(lastLine: MessageEncoding.error(id: nil, .lineTimeout(seconds: configuration.lineTimeout)))
        default:
            logger.debug("connection failed", metadata: ["client": "\(id)", "error": "\(error)"])
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        stallCheck?.cancel()
        stoppedReading = true
        guard id != 0 else {
            context.fireChannelInactive()
            return
        }
        // The outbox's wake closure holds this handler: let go of the outbox
        // so both are freed once the owner has forgotten the connection.
        outbox = nil
        self.context = nil
        owner.disconnect(id)
        logger.debug("client disconnected", metadata: ["client": "\(id)"])
        context.fireChannelInactive()
    }

    /// The daemon is stopping: requests already read are answered, then the
    /// client is told and the connection closes.
    func shutDown() {
        stopReading(lastLine: MessageEncoding.notification(ServerShutdown.self, params: .init(reason: "todod is stopping")))
    }

    /// The client was said goodbye: what it sends from now on is read (a
    /// client that writes everything before it reads must get to its
    /// reading) but not carried out, since no reply could reach it.
    private func ignoreFurtherLines() {
        stoppedReading = true
        burst.removeAll()
    }

    private func tooLong() {
        logger.warning("client sent an over-long line; closing", metadata: ["client": "\(id)", "limit": "\(configuration.maximumLineLength)"])
        stopReading(lastLine: MessageEncoding.error(id: nil, .lineTooLong(limit: configuration.maximumLineLength)))
    }

    private func handOver() {
        guard id != 0, !burst.isEmpty else { return }
        owner.submit(burst)
        burst.removeAll(keepingCapacity: true)
    }

    private func stopReading(lastLine: Data?) {
        guard !stoppedReading else { return }
        stoppedReading = true
        guard id != 0 else {
            // Not yet registered: say the last line (if any) directly and close.
            pendingEnd = .some(lastLine)
            return
        }
        handOver()
        owner.end(id, lastLine: lastLine)
    }

    /// Writes what the outbox holds; closes after the last line when the
    /// outbox is finished.
    ///
    /// At most one batch (`ConnectionOutbox.batchBytes`) is handed to the
    /// socket at a time, and the next only once it is written: the rest
    /// waits in the outbox, where its budget applies (a lagging client's
    /// events are dropped there, and its notices still come next).
    ///
    /// A batch is written and flushed at once, and nearly always the socket
    /// takes all of it there and then: nothing is left buffered, the batch
    /// counts as written, and the next is taken. Only when the socket is
    /// full does the batch wait, and then an empty write behind it, whose
    /// promise is kept once everything before it is written, says when. (A
    /// promise on every batch cost more than the rest of the write.)
    private func writeQueued() {
        guard let context, let outbox else { return }
        while bytesInFlight == 0 {
            switch outbox.takeNext() {
            case .write(let lines):
                let count = lines.count
                context.write(wrapOutboundOut(ByteBuffer(data: lines)), promise: nil)
                context.flush()
                if bufferedBytes(context) == 0 {
                    outbox.didWrite(count)
                    lastWrite = nil
                    continue
                }
                bytesInFlight = count
                let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
                let written = context.eventLoop.makePromise(of: Void.self)
                written.futureResult.whenComplete { result in
                    let handler = bound.value
                    handler.bytesInFlight = 0
                    guard case .success = result else { return }
                    outbox.didWrite(count)
                    handler.writeQueued()
                }
                context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(capacity: 0)), promise: written)
                lastWrite = written.futureResult
            case .idle:
                return
            case .close:
                let channel = context.channel
                let written = lastWrite ?? context.eventLoop.makeSucceededVoidFuture()
                written.whenComplete { _ in channel.closeAfterLastLine() }
                return
            }
        }
    }

    /// Bytes written to the channel that the socket has not taken yet.
    private func bufferedBytes(_ context: ChannelHandlerContext) -> Int {
        // Every socket channel answers; anything else is taken to hold
        // everything, so its batches wait for their writes as before.
        (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? .max
    }
}
