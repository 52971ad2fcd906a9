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

    /// Room for connections from every other local user together (and from
    /// anywhere that is not this machine): they hold no key, and a flood of
    /// them fills this room alone, never the owner's.
    public static let otherUsersConnections = 16

    public func run() async throws {
        let (accepted, acceptedInput) = AsyncStream<HTTP1WebSocketUpgradeChannel.Value>.makeStream()
        let ownersRoom = TabCount(limit: maximumConnections)
        let othersRoom = TabCount(limit: Self.otherUsersConnections)
        let owner = geteuid()
        let childChannel = self.childChannel
        let logger = self.logger
        let connectionLogger = Logger(label: logger.label) { _ in UnusedConnectionsAreNoErrors(logger.handler) }
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                Self.isOwners(channel, owner: owner).flatMap { isOwners in
                    let room = isOwners ? ownersRoom : othersRoom
                    // Past the limit a connection is closed at once: a flood of
                    // them costs a file descriptor each for a moment, no more.
                    guard room.enter() else {
                        if room.isFirstRefusal() {
                            logger.notice(
                                isOwners
                                    ? "connections are turned away: \(room.limit) of this user's are open"
                                    : "another user's connections are turned away: \(room.limit) not of this user's are open")
                        }
                        return channel.close()
                    }
                    channel.closeFuture.whenComplete { _ in room.leave() }
                    return childChannel.setup(channel: channel, logger: logger).flatMapThrowing { value in
                        try RequestHeadDeadline.add(to: channel, logger: logger)
                        acceptedInput.yield(value)
                    }
                }
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

    /// Whether the connection comes from todod-web's own user: by the
    /// socket at its other end for TCP (``ConnectingUser``), by
    /// `SO_PEERCRED` for a Unix socket.
    static func isOwners(_ channel: any Channel, owner: uid_t) -> EventLoopFuture<Bool> {
        if case .unixDomainSocket = channel.localAddress {
            guard let provider = channel as? any SocketOptionProvider else { return channel.eventLoop.makeSucceededFuture(false) }
            let credentials: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
                level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
            return credentials.map { $0.uid == owner }.recover { _ in false }
        }
        guard let remote = channel.remoteAddress, let local = channel.localAddress else {
            return channel.eventLoop.makeSucceededFuture(false)
        }
        return channel.eventLoop.makeSucceededFuture(ConnectingUser.uid(remote: remote, local: local) == owner)
    }

    /// `struct ucred`, which Glibc's module leaves out (it needs _GNU_SOURCE).
    struct PeerCredentials: Sendable {
        var pid: Int32
        var uid: UInt32
        var gid: UInt32
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
