import NIOCore
import NIOHTTP1
import NIOPosix

/// A tiny HTTP server on 127.0.0.1 for one test, answering every request
/// with the same raw bytes: for what no real CalDAV server does on purpose
/// (broken XML, a connection cut mid-body, an endless body).
///
/// The request is read whole (NIO's HTTP parser) before the answer goes, so
/// the client is never cut off while still sending; the connection is closed
/// after the answer, which may promise more body than it has.
final class CannedHTTPServer: Sendable {
    private let channel: any Channel
    let port: Int

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// `head` is the status line and headers (CRLF-separated, without the
    /// blank line); `body` follows the blank line as it is.
    init(head: String, body: String) async throws {
        let answer = head + "\r\n\r\n" + body
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)),
                        CannedResponder(answer: answer),
                    ])
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    /// A 207 with `xml` as its body and a correct length.
    convenience init(multistatus xml: String) async throws {
        try await self.init(
            head: "HTTP/1.1 207 Multi-Status\r\nContent-Type: application/xml; charset=utf-8\r\n"
                + "Content-Length: \(xml.utf8.count)\r\nConnection: close",
            body: xml)
    }

    func close() async throws {
        try await channel.close()
    }
}

/// Sends the answer once a request has been read, then closes.
private final class CannedResponder: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    private let answer: String

    init(answer: String) {
        self.answer = answer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        let buffer = context.channel.allocator.buffer(string: answer)
        // Small answers: the socket takes them at once, before the close.
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        context.close(promise: nil)
    }
}
