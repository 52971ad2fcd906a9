import Foundation
import Logging
import NIOCore
import NIOExtras
import NIOFoundationCompat
import NIOPosix
import ServiceLifecycle
import Synchronization
import SystemdSupport

/// The socket server: accepts connections and runs a session for each, as a
/// service of the daemon's service group.
///
/// Readiness is reported (`READY=1`) only once the socket accepts, and the
/// host was built before this service starts, so a client that systemd lets
/// through always finds a loaded store. On graceful shutdown the server stops
/// accepting at once (under socket activation, later clients wait in
/// systemd's backlog for the next start), lets every session finish the
/// request it is handling and tell its client, then returns.
public final class TodoServer: Service {
    private let configuration: DaemonConfiguration
    private let router: RequestRouter
    private let notifier: ServiceNotifier
    private let logger: Logger
    private let connectionCounter = Atomic<Int>(0)

    public init(configuration: DaemonConfiguration, host: ViewModelHost, notifier: ServiceNotifier, logger: Logger) {
        self.configuration = configuration
        self.router = RequestRouter(host: host)
        self.notifier = notifier
        self.logger = logger
    }

    public func run() async throws {
        let (serverChannel, boundPath) = try await bind()
        defer {
            if let boundPath { unlink(boundPath) }
        }
        let itemCount = await router.host.itemCount
        await router.host.startClock()
        notifier.ready(status: StatusText.serving(itemCount: itemCount))
        logger.info(
            "serving",
            metadata: [
                "socket": "\(boundPath ?? "passed by systemd")",
                "data": "\(configuration.databasePath)",
                "items": "\(itemCount)",
            ]
        )

        try await withGracefulShutdownHandler {
            try await serverChannel.executeThenClose { connections in
                await withDiscardingTaskGroup { group in
                    do {
                        for try await connection in connections {
                            let session = ConnectionSession(
                                id: connectionCounter.add(1, ordering: .relaxed).newValue,
                                router: router,
                                maximumLineLength: configuration.maximumLineLength,
                                logger: logger
                            )
                            logger.debug("client connected", metadata: ["client": "\(session.id)"])
                            group.addTask { await session.run(connection) }
                        }
                    } catch {
                        logger.error("accepting connections failed", metadata: ["error": "\(error)"])
                    }
                }
            }
        } onGracefulShutdown: {
            self.notifier.stopping(status: "stopping: finishing requests")
            self.logger.info("stopping: no new connections; finishing requests in progress")
            serverChannel.channel.close(promise: nil)
        }
        await router.host.stopClock()
        logger.info("all clients closed")
    }

    /// Adopts the socket systemd passed, or binds `configuration.socketPath`.
    /// Returns the path bound here (to remove on exit), or `nil` when systemd owns it.
    private func bind() async throws -> (NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>, String?) {
        let maximumLineLength = configuration.maximumLineLength
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
        let initializer: @Sendable (Channel) -> EventLoopFuture<NIOAsyncChannel<ByteBuffer, ByteBuffer>> = { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                    ByteToMessageHandler(LineBasedFrameDecoder(), maximumBufferSize: maximumLineLength)
                )
                return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }

        if let descriptor = try SocketActivation.passedUnixSocket() {
            logger.info("using the socket passed by systemd", metadata: ["fd": "\(descriptor)"])
            return (try await bootstrap.bind(descriptor, childChannelInitializer: initializer), nil)
        }

        let path = configuration.socketPath
        try ListeningSocket.prepare(path: path)
        // Create the socket file as 0600 from the start rather than chmod it after.
        let previousMask = umask(0o177)
        defer { umask(previousMask) }
        let channel = try await bootstrap.bind(unixDomainSocketPath: path, childChannelInitializer: initializer)
        return (channel, path)
    }
}
