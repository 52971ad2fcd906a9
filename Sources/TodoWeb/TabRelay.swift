import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import TodoClient

/// One browser tab's WebSocket, relayed line for line to a connection of its
/// own on todod's socket: each text message the tab sends is one request
/// line, and each line todod writes is one text message to the tab. The page
/// speaks todod's protocol itself (greeting, subscriptions, `since`, errors);
/// nothing here reads it.
///
/// Backpressure runs end to end: a tab that stops reading stops this relay
/// reading from todod, so todod's own outbox limits apply to it
/// (`connection.lagging`, then `connection.goodbye`), exactly as for a slow
/// client on its socket, and every other tab goes on.
public struct TabRelay: Sendable {
    /// todod's own line limit: a longer message is closed with 1009, as todod
    /// closes a connection whose line is too long.
    public static let maximumMessageBytes = 1 << 20

    let daemonSocket: String
    let tabs: TabCount

    let onTabsChanged: @Sendable (Int) -> Void

    /// `onTabsChanged` hears how many tabs are open after each opens or
    /// closes (todod-web words it for `systemctl status`).
    public init(daemonSocket: String, maximumTabs: Int, onTabsChanged: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.daemonSocket = daemonSocket
        self.tabs = TabCount(limit: maximumTabs)
        self.onTabsChanged = onTabsChanged
    }

    /// Tabs open now.
    public var openTabs: Int { tabs.current }

    /// How long a tab has to answer a close frame (RFC 6455 §7.1.1) before
    /// its connection is closed, unanswered: Hummingbird's own close
    /// timeout, once this relay has returned, is the same.
    public static let closeHandshakeTimeout: Duration = .seconds(10)

    /// Why a tab's WebSocket was closed, as the page reads it.
    enum Closing {
        static let daemonNotRunning = WebSocketErrorCode(codeNumber: 4001)
        static let daemonClosed = WebSocketErrorCode(codeNumber: 1012)  // service restart
        static let tooManyTabs = WebSocketErrorCode(codeNumber: 1013)  // try again later
    }

    /// A refused WebSocket's close reason (at most 123 bytes, as a close
    /// frame allows), by the HTTP status the same refusal would have.
    static func refusalReason(_ status: Int) -> String {
        switch status {
        case 401: "this page needs its key: open it with todoctl web"
        case 403: "refused: not this page's own Host or Origin"
        default: "refused: the request cannot be read"
        }
    }

    /// Relays one tab until either side ends. Errors are thrown on to the
    /// WebSocket handler, which closes with the code they name: a message
    /// over the limit in fragments (1009), invalid UTF-8 (1007).
    public func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, logger: Logger) async throws {
        guard tabs.enter() else {
            if tabs.isFirstRefusal() { logger.notice("tabs are turned away: \(tabs.limit) are open") }
            try? await outbound.close(Closing.tooManyTabs, reason: "todod-web serves at most \(tabs.limit) tabs; close one")
            return
        }
        onTabsChanged(tabs.current)
        defer {
            tabs.leave()
            onTabsChanged(tabs.current)
        }
        let daemon: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            daemon = try await DaemonLineChannel.connect(socketPath: daemonSocket)
        } catch {
            logger.notice("todod is not reachable", metadata: ["error": "\(error)"])
            try? await outbound.close(Closing.daemonNotRunning, reason: "todod is not running")
            return
        }
        try await daemon.executeThenClose { fromDaemon, toDaemon in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await line in fromDaemon {
                        try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: line)))
                    }
                    try? await outbound.close(Closing.daemonClosed, reason: "todod closed the connection")
                    // The tab's answer to the close ends the relay, on the
                    // other side: ending it here would stop reading the tab,
                    // which ends the WebSocket at once, and what it had not
                    // yet read of todod's last lines (a goodbye, the close
                    // frame) would be cut off mid-message.
                    try await Task.sleep(for: TabRelay.closeHandshakeTimeout)
                }
                group.addTask {
                    try await Self.forward(inbound, to: toDaemon, outbound: outbound)
                }
                // Either side ending ends the tab: todod's connection is
                // closed with it, and the other direction is stopped.
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// The tab's messages to todod, one line each. A message that cannot be
    /// one line is refused with a close reason rather than split or mended.
    private static func forward(
        _ inbound: WebSocketInboundStream, to daemon: NIOAsyncChannelOutboundWriter<ByteBuffer>, outbound: WebSocketOutboundWriter
    ) async throws {
        for try await message in inbound.messages(maxSize: maximumMessageBytes) {
            switch message {
            case .text(let text):
                guard !text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else {
                    try await outbound.close(.dataInconsistentWithMessage, reason: "one message is one request line: it must not hold a line break")
                    return
                }
                var line = ByteBuffer(string: text)
                line.writeInteger(UInt8(ascii: "\n"))
                try await daemon.write(line)
            case .binary:
                try await outbound.close(.unacceptableData, reason: "todod speaks JSON text: send each request as one text message")
                return
            }
        }
    }
}
