import Foundation
import Logging
import NIOCore
import NIOExtras
import NIOFoundationCompat
import NIOPosix
import ServiceLifecycle
import Synchronization
import SystemdSupport
import TodoProtocol

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
    /// The limits can change while todod runs (a reload); each connection
    /// keeps those it started with.
    private let currentConfiguration: Mutex<DaemonConfiguration>
    private var configuration: DaemonConfiguration { currentConfiguration.withLock { $0 } }
    private let status: StatusReporter
    private let router: RequestRouter
    private let notifier: ServiceNotifier
    private let logger: Logger
    private let connectionCounter = Atomic<Int>(0)
    private let openConnections = Atomic<Int>(0)
    private let historyRevisions: Int

    public init(
        configuration: DaemonConfiguration, host: ViewModelHost, notifier: ServiceNotifier, status: StatusReporter,
        logger: Logger
    ) {
        self.currentConfiguration = Mutex(configuration)
        self.status = status
        self.router = RequestRouter(
            host: host, server: .init(version: DaemonVersion.current, dataFile: configuration.databasePath))
        self.historyRevisions = host.options.historyRevisions
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
        let statusText = await status.currentText()
        notifier.ready(status: statusText)
        status.sent(statusText)
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
                                configuration: configuration,
                                historyRevisions: historyRevisions,
                                logger: logger
                            )
                            group.addTask { await self.serve(connection, in: session) }
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

    /// Checks who connected and whether there is room, then runs the session.
    private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, in session: ConnectionSession) async {
        let owner = getuid()
        do {
            let peer = try await PeerCredentials.of(connection.channel)
            guard peer.uid == owner else {
                logger.warning("refused a connection from another user", metadata: ["uid": "\(peer.uid)", "pid": "\(peer.pid)"])
                await refuse(connection, .accessDenied(uid: peer.uid, owner: owner))
                return
            }
        } catch where !connection.channel.isActive {
            // The client hung up at once (e.g. a readiness probe): nobody to refuse.
            logger.debug("client left before it could be checked", metadata: ["error": "\(error)"])
            return
        } catch {
            logger.warning("cannot tell who connected; refusing", metadata: ["error": "\(error)"])
            connection.channel.close(promise: nil)
            return
        }
        let open = openConnections.add(1, ordering: .relaxed).newValue
        defer { openConnections.subtract(1, ordering: .relaxed) }
        let limit = configuration.servableConnections
        guard open <= limit else {
            logger.warning("refused a connection: too many", metadata: ["limit": "\(limit)"])
            await refuse(connection, .tooManyConnections(limit: limit))
            return
        }
        logger.debug("client connected", metadata: ["client": "\(session.id)"])
        await session.run(connection)
    }

    /// Answers a connection that will not be served with one error line, and closes it.
    private func refuse(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, _ error: RPCError) async {
        try? await connection.executeThenClose { _, outbound in
            try await outbound.write(ByteBuffer(bytes: MessageEncoding.error(id: nil, error)))
        }
    }

    /// New limits (a reloaded configuration), for connections from now on.
    public func apply(limitsOf settings: DaemonSettings) {
        currentConfiguration.withLock { $0 = settings.applied(to: $0) }
    }

    /// Adopts the socket systemd passed, or binds `configuration.socketPath`.
    /// Returns the path bound here (to remove on exit), or `nil` when systemd owns it.
    private func bind() async throws -> (NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>, String?) {
        let maximumLineLength = configuration.maximumLineLength
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelInitializer(AcceptFailureLog.installer(logger: logger))
        let initializer: @Sendable (Channel) -> EventLoopFuture<NIOAsyncChannel<ByteBuffer, ByteBuffer>> = { channel in
            // Read for each connection: a reload changes it for those that follow.
            let lineTimeout = TimeAmount.milliseconds(Int64(self.configuration.lineTimeout * 1000))
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandlers(
                    PartialLineTimeoutHandler(timeout: lineTimeout),
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
