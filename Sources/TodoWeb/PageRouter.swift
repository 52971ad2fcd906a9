import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket

/// The HTTP side of todod-web: the gate in front of everything, then the
/// page's three files, `/session` (whether the key is held, for the page to
/// tell "not signed in" from "todod is down"), and `/rpc`, the WebSocket
/// each tab relays todod's protocol over.
public struct PageRouter: Sendable {
    let gate: AccessGate
    let page: PageFiles
    let relay: TabRelay

    public init(gate: AccessGate, page: PageFiles, relay: TabRelay) {
        self.gate = gate
        self.page = page
        self.relay = relay
    }

    /// The child channel each accepted connection gets: HTTP/1.1, upgraded
    /// to a WebSocket on `/rpc` when the gate lets it through.
    public func childChannel(logger: Logger) -> HTTP1WebSocketUpgradeChannel {
        let responder = makeRouter().buildResponder()
        let gate = self.gate
        let relay = self.relay
        let budget = MessageBudget()
        return HTTP1WebSocketUpgradeChannel(
            responder: { request, writer, channel in
                let context = BasicRequestContext(source: .init(channel: channel, logger: logger))
                var response: Response
                do {
                    response = try await responder.respond(to: request, context: context)
                } catch let error as HTTPResponseError {
                    response = try error.response(from: request, context: context)
                } catch {
                    logger.error("a request failed", metadata: ["error": "\(error)"])
                    response = Response(status: .internalServerError)
                }
                PageHeaders.apply(to: &response.headers)
                try await writer.write(response: response.head, body: response.body)
                // A refused request ends its connection (Hummingbird keeps it
                // open whatever the response says): a connection without the
                // key gets one head's worth of time, not a keep-alive.
                if response.headers[.connection] == "close" { try? await channel.close() }
            },
            configuration: .init(
                http1: .init(idleTimeout: .seconds(60)),
                ws: .init(
                    maxFrameSize: TabRelay.maximumMessageBytes,
                    autoPing: .enabled(timePeriod: .seconds(30)),
                    closeTimeout: TabRelay.closeHandshakeTimeout,
                    validateUTF8: true)),
            shouldUpgrade: { head, channel, _ in
                guard AccessGate.split(head.path ?? "").0 == "/rpc" else { return .dontUpgrade }
                // Both handlers go behind the HTTP handlers, where the upgrade
                // hands on the bytes that came with the handshake.
                switch gate.decide(AccessGate.Request(head, isWebSocket: true)) {
                case .allow:
                    try channel.pipeline.syncOperations.addHandler(IncomingFrames(budget: budget))
                    return .upgrade([:]) { inbound, outbound, context in
                        try await relay.run(inbound: inbound, outbound: outbound, logger: context.logger)
                    }
                case .refuse(let status, _):
                    // Closed at once, unread; nothing reaches todod.
                    try channel.pipeline.syncOperations.addHandler(RefusedWebSocket(status: status, reason: TabRelay.refusalReason(status)))
                    return .upgrade([:]) { _, _, _ in }
                case .signIn:
                    return .dontUpgrade  // never for a WebSocket
                }
            })
    }

    func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: GateMiddleware(gate: gate))
        let page = self.page
        for (path, name) in [("/", "index.html"), ("/index.html", "index.html"), ("/style.css", "style.css"), ("/app.js", "app.js")] {
            router.get(RouterPath(path)) { _, _ -> Response in
                guard let file = page.file(named: name) else { throw HTTPError(.notFound) }
                return Response(status: .ok, headers: [.contentType: file.contentType], body: .init(byteBuffer: file.bytes))
            }
        }
        router.get("/session") { _, _ in HTTPResponse.Status.noContent }
        router.get("/rpc") { _, _ -> Response in
            Response(
                status: .badRequest, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "This is the page's WebSocket: connect with a WebSocket upgrade.\n")))
        }
        return router
    }
}

/// Runs the gate on every request the router sees.
struct GateMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let gate: AccessGate

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // A WebSocket that was not upgraded reaches the router with its
        // Upgrade header gone: `/rpc` is judged as the WebSocket it is for.
        let isWebSocket = AccessGate.split(request.head.path ?? "").0 == "/rpc"
        switch gate.decide(AccessGate.Request(request.head, isWebSocket: isWebSocket)) {
        case .allow:
            return try await next(request, context)
        case .signIn(let location, let setCookie):
            return Response(status: .seeOther, headers: [.location: location, .setCookie: setCookie])
        case .refuse(let status, let message):
            return Response(
                status: HTTPResponse.Status(code: status), headers: [.contentType: "text/plain; charset=utf-8", .connection: "close"],
                body: .init(byteBuffer: ByteBuffer(string: "todod-web: " + message + "\n")))
        }
    }
}

extension AccessGate.Request {
    init(_ head: HTTPRequest, isWebSocket: Bool) {
        self.init(
            path: head.path ?? "/",
            authority: head.authority,
            cookies: head.headerFields[values: .cookie],
            authorization: head.headerFields[.authorization],
            origin: head.headerFields[.origin],
            isWebSocket: isWebSocket)
    }
}
