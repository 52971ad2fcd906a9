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

/// The socket server: accepts connections and gives each a channel handler
/// that talks to the state owner, as a service of the daemon's service group.
///
/// Readiness is reported (`READY=1`) only once the socket accepts, and the
/// owner was built before this service starts, so a client that systemd lets
/// through always finds a loaded store. On graceful shutdown the server stops
/// accepting at once (under socket activation, later clients wait in
/// systemd's backlog for the next start), lets every connection finish the
/// requests it has read and tell its client, then returns.
public final class TodoServer: Service {
    /// The limits can change while todod runs (a reload); each connection
    /// keeps those it started with.
    private let currentConfiguration: Mutex<DaemonConfiguration>
    private var configuration: DaemonConfiguration { currentConfiguration.withLock { $0 } }
    private let status: StatusReporter
    private let owner: ListOwner
    private let notifier: ServiceNotifier
    private let logger: Logger
    private let connectionCounter = Atomic<Int>(0)
    private let openConnections = Atomic<Int>(0)
    /// Every connection being served, to tell each when the daemon stops.
    private let served = Mutex(ServedConnections())

    private struct ServedConnection {
        let channel: any Channel
        let handler: NIOLoopBound<ConnectionHandler>
    }

    /// The connections, and whether the daemon has begun stopping, under one
    /// lock: a connection accepted just before the listening socket closed is
    /// either in the list the stop goes through (and told), or turned away
    /// before its greeting (and its client, having sent nothing, retries).
    /// Checked apart, such a connection could be greeted after the list was
    /// read, never be told, and lose its request when the process exits.
    private struct ServedConnections {
        var connections: [ObjectIdentifier: ServedConnection] = [:]
        var stopping = false
    }

    public init(
        configuration: DaemonConfiguration, owner: ListOwner, notifier: ServiceNotifier, status: StatusReporter,
        logger: Logger
    ) {
        self.currentConfiguration = Mutex(configuration)
        self.status = status
        self.owner = owner
        self.notifier = notifier
        self.logger = logger
    }

    public func run() async throws {
        let (serverChannel, boundPath) = try await bind()
        defer {
            if let boundPath { unlink(boundPath) }
        }
        let itemCount = await owner.itemCount
        owner.startClock()
        let statusText = await status.currentText()
        notifier.ready(status: statusText)
        status.sent(statusText)
        logger.info(
            "serving",
            metadata: [
                "socket": "\(boundPath ?? "passed by systemd")",
                "data": "\(owner.server.dataFile)",
                "items": "\(itemCount)",
            ]
        )

        await withGracefulShutdownHandler {
            try? await serverChannel.closeFuture.get()
        } onGracefulShutdown: {
            self.notifier.stopping(status: "stopping: finishing requests")
            self.logger.info("stopping: no new connections; finishing requests in progress")
            serverChannel.close(promise: nil)
        }
        // No new connections: let each finish what it read and say goodbye.
        let connections = served.withLock { served in
            served.stopping = true
            return Array(served.connections.values)
        }
        for connection in connections {
            connection.channel.eventLoop.execute { connection.handler.value.shutDown() }
        }
        for connection in connections {
            try? await connection.channel.closeFuture.get()
        }
        owner.stopClock()
        logger.info("all clients closed")
    }

    /// Checks who connected and whether there is room, then installs the
    /// connection's handlers (or refuses it with one line).
    private func initialize(_ channel: any Channel, maximumLineLength: Int) -> EventLoopFuture<Void> {
        let owner = getuid()
        return PeerCredentials.of(channel).flatMap { peer in
            guard peer.uid == owner else {
                self.logger.warning("refused a connection from another user", metadata: ["uid": "\(peer.uid)", "pid": "\(peer.pid)"])
                return self.refuse(channel, .accessDenied(uid: peer.uid, owner: owner))
            }
            let configuration = self.configuration
            let open = self.openConnections.add(1, ordering: .relaxed).newValue
            channel.closeFuture.whenComplete { _ in self.openConnections.subtract(1, ordering: .relaxed) }
            let limit = configuration.servableConnections
            guard open <= limit else {
                self.logger.warning("refused a connection: too many", metadata: ["limit": "\(limit)"])
                return self.refuse(channel, .tooManyConnections(limit: limit))
            }
            let historyRevisions = self.owner.options.historyRevisions
            let handler = ConnectionHandler(
                owner: self.owner, configuration: configuration,
                nextID: { self.connectionCounter.add(1, ordering: .relaxed).newValue },
                greeting: { id, epoch, revision in
                    MessageEncoding.notification(
                        ServerHello.self,
                        params: Self.greeting(
                            connection: id, epoch: epoch, revision: revision, configuration, historyRevisions: historyRevisions))
                }, logger: self.logger)
            return channel.eventLoop.makeCompletedFuture {
                // Listed before its handlers are added, on its own loop: the
                // stop's call to `shutDown` is queued behind this, so it finds
                // the handler; if the connection is not greeted yet by then, the
                // handler greets it and then says the shutdown (`pendingEnd`).
                let key = ObjectIdentifier(channel)
                let listed = self.served.withLock { served in
                    guard !served.stopping else { return false }
                    served.connections[key] = ServedConnection(
                        channel: channel, handler: NIOLoopBound(handler, eventLoop: channel.eventLoop))
                    return true
                }
                guard listed else {
                    self.logger.debug("closed a connection accepted as todod began stopping")
                    channel.close(promise: nil)
                    return
                }
                channel.closeFuture.whenComplete { _ in _ = self.served.withLock { $0.connections.removeValue(forKey: key) } }
                try channel.pipeline.syncOperations.addHandlers(
                    PartialLineTimeoutHandler(timeout: .milliseconds(Int64(configuration.lineTimeout * 1000))),
                    ByteToMessageHandler(LineBasedFrameDecoder(), maximumBufferSize: maximumLineLength),
                    handler)
            }
        }.flatMapErrorThrowing { error in
            // The client hung up at once (e.g. a readiness probe), or cannot be identified.
            self.logger.debug("client left before it could be checked", metadata: ["error": "\(error)"])
            channel.close(promise: nil)
        }
    }

    static func greeting(
        connection: Int, epoch: String, revision: Int, _ configuration: DaemonConfiguration, historyRevisions: Int
    ) -> ServerHello.Params {
        ServerHello.Params(
            server: DaemonVersion.current, epoch: epoch, revision: revision, connection: connection,
            limits: .init(
                maxLineBytes: configuration.maximumLineLength, lineTimeoutSeconds: configuration.lineTimeout,
                outboxSoftLimitBytes: configuration.outboxSoftLimit, outboxHardLimitBytes: configuration.outboxHardLimit,
                stallTimeoutSeconds: configuration.stallTimeout, maxConnections: configuration.servableConnections,
                historyRevisions: historyRevisions))
    }

    /// Answers a connection that will not be served with one error line, and closes it.
    private func refuse(_ channel: any Channel, _ error: RPCError) -> EventLoopFuture<Void> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(RefusalHandler(line: MessageEncoding.error(id: nil, error)))
        }
    }

    /// New limits (a reloaded configuration), for connections from now on.
    public func apply(limitsOf settings: DaemonSettings) {
        currentConfiguration.withLock { $0 = settings.applied(to: $0) }
    }

    /// Adopts the socket systemd passed, or binds `configuration.socketPath`.
    /// Returns the path bound here (to remove on exit), or `nil` when systemd owns it.
    private func bind() async throws -> (any Channel, String?) {
        let maximumLineLength = configuration.maximumLineLength
        // Connections are served on the owner's own loop: no thread hop per request.
        let bootstrap = ServerBootstrap(group: owner.loop)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelInitializer(AcceptFailureLog.installer(logger: logger))
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in self.initialize(channel, maximumLineLength: maximumLineLength) }

        if let descriptor = try SocketActivation.passedUnixSocket() {
            logger.info("using the socket passed by systemd", metadata: ["fd": "\(descriptor)"])
            return (try await bootstrap.withBoundSocket(descriptor).get(), nil)
        }

        let path = configuration.socketPath
        try ListeningSocket.prepare(path: path)
        // Create the socket file as 0600 from the start rather than chmod it after.
        let previousMask = umask(0o177)
        defer { umask(previousMask) }
        let channel = try await bootstrap.bind(unixDomainSocketPath: path).get()
        return (channel, path)
    }
}
