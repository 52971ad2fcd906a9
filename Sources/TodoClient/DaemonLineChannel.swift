import NIOCore
import NIOExtras
import NIOPosix

/// A connection to todod that carries its lines as they are: what
/// `TodoConnection` reads replies from, and what todod-web relays a tab's
/// WebSocket over.
///
/// The socket must be served by this user (or root) before a byte is sent
/// (`ServerIdentity`). Lines arrive without their `\n`; what is written
/// must end with one.
public enum DaemonLineChannel {
    public static func connect(
        socketPath: String,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: group)
                .connect(unixDomainSocketPath: socketPath) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        // todod's lines may be long (the first state of a
                        // big list): it is trusted, as it is this user's.
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw ClientError.daemonUnreachable(socketPath: socketPath, reason: TodoConnection.describeConnectError(error))
        }
        do {
            try await ServerIdentity.check(channel.channel, socketPath: socketPath)
        } catch {
            try? await channel.channel.close()
            throw error
        }
        return channel
    }
}
