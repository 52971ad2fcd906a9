import Glibc
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Where todod-web listens.
public enum ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// A listening socket systemd passed (todod-web.socket).
    case passed(descriptor: Int32)
    case tcp(host: String, port: Int)
    /// A Unix socket, for a reverse proxy; made 0600.
    case unix(path: String)

    public var description: String {
        switch self {
        case .passed(let descriptor): "the socket systemd passed (fd \(descriptor))"
        case .tcp(let host, let port): host.contains(":") ? "http://[\(host)]:\(port)/" : "http://\(host):\(port)/"
        case .unix(let path): path
        }
    }
}

/// Serves the page's child channels on every address: Hummingbird's own
/// server binds one address it names itself, while todod-web listens on
/// 127.0.0.1 and ::1 at once, or on the sockets systemd passes.
public final class WebServer: Service, Sendable {
    let addresses: [ListenAddress]
    let childChannel: HTTP1WebSocketUpgradeChannel
    let maximumConnections: Int
    let logger: Logger
    let onListening: @Sendable ([String]) -> Void

    public init(
        addresses: [ListenAddress], childChannel: HTTP1WebSocketUpgradeChannel, maximumConnections: Int, logger: Logger,
        onListening: @escaping @Sendable ([String]) -> Void
    ) {
        self.addresses = addresses
        self.childChannel = childChannel
        self.maximumConnections = maximumConnections
        self.logger = logger
        self.onListening = onListening
    }

    public func run() async throws {
        let (accepted, acceptedInput) = AsyncStream<HTTP1WebSocketUpgradeChannel.Value>.makeStream()
        let connections = TabCount(limit: maximumConnections)
        let childChannel = self.childChannel
        let logger = self.logger
        let connectionLogger = Logger(label: logger.label) { _ in UnusedConnectionsAreNoErrors(logger.handler) }
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                // Past the limit a connection is closed at once: a flood of
                // them costs a file descriptor each for a moment, no more.
                guard connections.enter() else {
                    logger.notice("a connection was turned away: \(connections.limit) are open")
                    return channel.close()
                }
                channel.closeFuture.whenComplete { _ in connections.leave() }
                return childChannel.setup(channel: channel, logger: logger).map { acceptedInput.yield($0) }
            }

        var listeners: [any Channel] = []
        do {
            for address in addresses {
                listeners.append(try await Self.listen(bootstrap, on: address))
            }
        } catch {
            for listener in listeners { try? await listener.close() }
            throw error
        }
        let servers = listeners
        onListening(zip(addresses, servers).map { address, listener in
            if case .tcp(let host, _) = address, let port = listener.localAddress?.port {
                return ListenAddress.tcp(host: host, port: port).description
            }
            return address.description
        })

        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                for await value in accepted {
                    group.addTask { await childChannel.handle(value: value, logger: connectionLogger) }
                }
                // Stopping: every tab's WebSocket and todod connection closes;
                // the pages reconnect when todod-web is back.
                group.cancelAll()
            }
        } onGracefulShutdown: {
            for listener in servers { listener.close(promise: nil) }
            acceptedInput.finish()
        }
    }

    static func listen(_ bootstrap: ServerBootstrap, on address: ListenAddress) async throws -> any Channel {
        switch address {
        case .passed(let descriptor):
            return try await bootstrap.withBoundSocket(descriptor).get()
        case .tcp(let host, let port):
            return try await bootstrap.bind(host: host, port: port).get()
        case .unix(let path):
            // Made 0600 from the start, not chmod-ed after.
            let previousMask = umask(0o177)
            defer { umask(previousMask) }
            return try await bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).get()
        }
    }
}
