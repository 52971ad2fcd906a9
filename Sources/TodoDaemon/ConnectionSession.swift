import Foundation
import Logging
import NIOCore
import NIOExtras
import NIOFoundationCompat
import ServiceLifecycle
import TodoProtocol

/// One client connection: reads request lines, answers them in order, and
/// writes pushed events in between.
///
/// Everything the connection sends goes through one outbox, in the order it
/// was put there. The host puts a mutation's events in before the router puts
/// in its reply, so a client always sees the events of its own change first.
struct ConnectionSession {
    let id: Int
    let router: RequestRouter
    let maximumLineLength: Int
    let logger: Logger

    func run(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        let (outbox, outboxInput) = AsyncStream<Data>.makeStream()
        let connection = RequestRouter.Connection(id: id, outbox: { outboxInput.yield($0) })
        do {
            try await channel.executeThenClose { inbound, outbound in
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask {
                        for await line in outbox {
                            try await outbound.write(ByteBuffer(bytes: line))
                        }
                    }
                    await readRequests(inbound, connection: connection)
                    outboxInput.finish()
                }
            }
        } catch {
            logger.debug("connection ended with an error", metadata: ["client": "\(id)", "error": "\(error)"])
        }
        await router.host.disconnect(connection: id)
        logger.debug("client disconnected", metadata: ["client": "\(id)"])
    }

    /// Answers requests until the client closes, sends a line that is too
    /// long, or the daemon shuts down. A request being handled when shutdown
    /// begins is finished and answered first.
    private func readRequests(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, connection: RequestRouter.Connection) async {
        do {
            for try await line in inbound.cancelOnGracefulShutdown() {
                let bytes = Data(buffer: line)
                if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
                    continue  // blank lines are allowed between requests
                }
                if let reply = await router.reply(to: bytes, from: connection) {
                    connection.outbox(reply)
                }
            }
        } catch is ByteToMessageDecoderError.PayloadTooLargeError {
            logger.warning("client sent an over-long line; closing", metadata: ["client": "\(id)", "limit": "\(maximumLineLength)"])
            connection.outbox(MessageEncoding.error(id: nil, .lineTooLong(limit: maximumLineLength)))
        } catch {
            logger.debug("reading from client failed", metadata: ["client": "\(id)", "error": "\(error)"])
        }
        if Task.isShuttingDownGracefully {
            connection.outbox(
                MessageEncoding.notification(ServerShutdown.self, params: .init(reason: "todod is stopping"))
            )
        }
    }
}
