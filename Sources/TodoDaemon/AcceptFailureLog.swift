import Logging
import NIOCore

/// Logs failures to accept connections (EMFILE: out of file descriptors,
/// ENFILE, ENOMEM, ENOBUFS), at most one line per interval.
///
/// NIO keeps the server channel open on these errors while the clients wait
/// in the backlog without a word; without this handler nothing says why.
/// NIO's `AcceptBackoffHandler` is meant to retry once a second, but a failed
/// accept leaves NIO's read pending, so it retries at once: about 30,000
/// failures a second here (swift-nio 2.x, `prlimit` below the descriptors in
/// use). For want of descriptors `OutOfDescriptorsPause` now stops that
/// (it tries again every 100 ms); the other errors still come that fast. A
/// line per failure would flood the log, so the lines are rate-limited and
/// each counts the failures it stands for. Added first on the server
/// channel, so it sees the error before the pause and the backoff handler,
/// which swallow it.
final class AcceptFailureLog: ChannelInboundHandler {
    typealias InboundIn = Channel

    private var limiter: AcceptFailureRateLimit
    private let logger: Logger

    init(logger: Logger, interval: Duration = .seconds(10)) {
        self.logger = logger
        self.limiter = AcceptFailureRateLimit(interval: interval)
    }

    /// For `ServerBootstrap.serverChannelInitializer`: this log, then the
    /// pause that keeps todod alive while descriptors are short.
    static func installer(logger: Logger) -> @Sendable (any Channel) -> EventLoopFuture<Void> {
        { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandlers(
                    AcceptFailureLog(logger: logger), OutOfDescriptorsPause(logger: logger))
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let line = limiter.failed(at: .now) {
            var metadata: Logger.Metadata = ["error": "\(error)", "failuresNotLogged": "\(line.notLogged)"]
            if let limit = FileDescriptorLimit.softLimit() { metadata["fileLimit"] = "\(limit)" }
            logger.warning(
                """
                cannot accept connections; clients wait unanswered until it works again \
                (out of file descriptors? raise LimitNOFILE or lower max-connections)
                """,
                metadata: metadata)
        }
        context.fireErrorCaught(error)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let line = limiter.accepted(at: .now) {
            logger.notice("accepting connections again", metadata: ["failuresNotLogged": "\(line.notLogged)"])
        }
        context.fireChannelRead(data)
    }
}

/// When to log accept failures: at most one failure line per `interval`,
/// each saying how many failures since the line before were not logged; and
/// once accepting works again, one line saying so, right after a failure
/// line or else within the same budget (so at most two lines per interval,
/// however often it flaps). No I/O and no clock of its own: tests give it
/// the instants.
struct AcceptFailureRateLimit {
    struct Line: Equatable {
        /// Failures since the previous line that no line reported.
        var notLogged: Int
    }

    let interval: Duration
    private var lastLine: ContinuousClock.Instant?
    private var lastLineWasFailure = false
    private var notLogged = 0
    /// A failure happened, and no "accepting again" line has said it is over.
    private var failing = false

    init(interval: Duration) {
        self.interval = interval
    }

    /// An accept failed at `now`: the line to log, or nil to stay quiet.
    mutating func failed(at now: ContinuousClock.Instant) -> Line? {
        failing = true
        guard budgetAllows(at: now) else {
            notLogged += 1
            return nil
        }
        return take(at: now, failure: true)
    }

    /// A connection was accepted at `now`: a line when that ends a failure,
    /// else nil.
    mutating func accepted(at now: ContinuousClock.Instant) -> Line? {
        guard failing, lastLineWasFailure || budgetAllows(at: now) else { return nil }
        failing = false
        return take(at: now, failure: false)
    }

    private func budgetAllows(at now: ContinuousClock.Instant) -> Bool {
        lastLine.map { now - $0 >= interval } ?? true
    }

    private mutating func take(at now: ContinuousClock.Instant, failure: Bool) -> Line {
        defer { notLogged = 0 }
        if failure { lastLine = now }
        lastLineWasFailure = failure
        return Line(notLogged: notLogged)
    }
}
