import Foundation
import Logging
import NIOCore
import NIOExtras
import NIOFoundationCompat
import ServiceLifecycle
import TodoProtocol

/// One client connection: greets, reads request lines, answers them in
/// order, and writes pushed events in between.
///
/// Three tasks share the connection. The reader carries out each request as
/// it arrives and hands the pending reply on; the replier waits for each
/// reply's durability, in order, and queues it; the writer drains the
/// connection's outbox into the socket. Everything the connection sends goes
/// through the outbox, in the order it was put there; the host puts a
/// change's events in before the replier can put in the reply.
struct ConnectionSession {
    let id: Int
    let router: RequestRouter
    let configuration: DaemonConfiguration
    let historyRevisions: Int
    let logger: Logger

    func run(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        let host = router.host
        let logger = self.logger
        let outbox = ConnectionOutbox(
            connectionID: id,
            limits: .init(
                softBytes: configuration.outboxSoftLimit, hardBytes: configuration.outboxHardLimit,
                stallTimeout: .milliseconds(Int64(configuration.stallTimeout * 1000))),
            drained: { connection in Task { await host.resync(connection: connection) } },
            saidGoodbye: { connection, reason in
                logger.warning(
                    "disconnecting a slow client", metadata: ["client": "\(connection)", "reason": "\(reason.rawValue)"])
            },
            startedLagging: { connection, pending in
                logger.notice(
                    "client is lagging; coalescing its events", metadata: ["client": "\(connection)", "pending": "\(pending)"])
            })
        let (epoch, revision) = await host.connect(outbox)
        outbox.send(MessageEncoding.notification(ServerHello.self, params: greeting(epoch: epoch, revision: revision)))
        let connection = RequestRouter.Connection(sink: outbox)
        let watchdog = Task { await watchForStalls(outbox, channel: channel.channel) }
        defer { watchdog.cancel() }
        do {
            try await channel.executeThenClose { inbound, outbound in
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask {
                        while let line = await outbox.next() {
                            try await outbound.write(ByteBuffer(bytes: line))
                            outbox.didWrite()
                        }
                        // A goodbye or the end of the session: close both ways.
                        channel.channel.close(promise: nil)
                    }
                    let (replies, replyInput) = AsyncStream<RequestRouter.PendingReply>.makeStream()
                    group.addTask {
                        for await pending in replies {
                            if let reply = await pending.finish() { outbox.send(reply) }
                        }
                        outbox.finish()
                    }
                    await readRequests(inbound, connection: connection, replies: replyInput)
                    replyInput.finish()
                }
            }
        } catch {
            logger.debug("connection ended with an error", metadata: ["client": "\(id)", "error": "\(error)"])
        }
        await host.disconnect(connection: id)
        logger.debug("client disconnected", metadata: ["client": "\(id)"])
    }

    private func greeting(epoch: String, revision: Int) -> ServerHello.Params {
        ServerHello.Params(
            server: DaemonVersion.current, epoch: epoch, revision: revision, connection: id,
            limits: .init(
                maxLineBytes: configuration.maximumLineLength, lineTimeoutSeconds: configuration.lineTimeout,
                outboxSoftLimitBytes: configuration.outboxSoftLimit, outboxHardLimitBytes: configuration.outboxHardLimit,
                stallTimeoutSeconds: configuration.stallTimeout, maxConnections: configuration.servableConnections,
                historyRevisions: historyRevisions))
    }

    /// Answers requests until the client closes, breaks a limit, or the
    /// daemon shuts down. A request being handled when shutdown begins is
    /// finished and answered first.
    private func readRequests(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, connection: RequestRouter.Connection,
        replies: AsyncStream<RequestRouter.PendingReply>.Continuation
    ) async {
        var ending: Data?
        do {
            for try await line in inbound.cancelOnGracefulShutdown() {
                // The decoder's own bound is loose (a line that arrives whole
                // is decoded however long); this one is exact.
                guard line.readableBytes <= configuration.maximumLineLength else {
                    throw ByteToMessageDecoderError.PayloadTooLargeError()
                }
                let bytes = Data(buffer: line)
                if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) {
                    continue  // blank lines are allowed between requests
                }
                replies.yield(await router.begin(bytes, from: connection))
            }
        } catch is ByteToMessageDecoderError.PayloadTooLargeError {
            logger.warning("client sent an over-long line; closing", metadata: ["client": "\(id)", "limit": "\(configuration.maximumLineLength)"])
            ending = MessageEncoding.error(id: nil, .lineTooLong(limit: configuration.maximumLineLength))
        } catch is PartialLineTimeoutHandler.Timeout {
            logger.warning("client left a line unfinished; closing", metadata: ["client": "\(id)", "seconds": "\(configuration.lineTimeout)"])
            ending = MessageEncoding.error(id: nil, .lineTimeout(seconds: configuration.lineTimeout))
        } catch {
            logger.debug("reading from client failed", metadata: ["client": "\(id)", "error": "\(error)"])
        }
        if Task.isShuttingDownGracefully {
            ending = MessageEncoding.notification(ServerShutdown.self, params: .init(reason: "todod is stopping"))
        }
        if let ending { replies.yield(RequestRouter.PendingReply(line: ending, host: router.host)) }
    }

    /// Checks a few times per stall timeout whether the client has stopped
    /// reading: first it is told goodbye, then, if even that cannot be
    /// written, the connection is closed.
    private func watchForStalls(_ outbox: ConnectionOutbox, channel: any Channel) async {
        let interval = Duration.milliseconds(max(50, min(1000, Int64(configuration.stallTimeout * 250))))
        while channel.isActive {
            do { try await Task.sleep(for: interval) } catch { return }
            if outbox.checkStall() == .close {
                channel.close(promise: nil)
                return
            }
        }
    }
}
