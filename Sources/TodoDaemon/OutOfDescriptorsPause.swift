import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// When accepting fails for want of file descriptors (EMFILE, ENFILE),
/// stops accepting and hands the few descriptors held back for the purpose
/// to the rest of todod, until there is room for them and a connection again.
///
/// Why todod must never run its descriptors down to none, even for a
/// moment that lasts: libdispatch, which runs Swift's concurrency on Linux,
/// checks its worker threads once a second by opening `/proc/TID/stat` when
/// work is waiting on one of its global queues at that moment (a task
/// waking from `Task.sleep`, such as the status line's), and when that
/// `open` fails it aborts the process with SIGILL ("workq: registered
/// worker exited prematurely", swift-corelibs-libdispatch
/// `src/event/workqueue.c`). NIO, for its part, retries a failed accept at
/// once, so while clients wait in the backlog every descriptor that comes
/// free is taken by the next accept. Together: a todod whose limit is
/// lowered below what it holds (`prlimit`), or whose descriptors are taken
/// by something else, died whenever such a check fell in the shortage
/// (about one run in twenty of the end-to-end test that does this), and
/// its waiting clients were closed without a word.
///
/// So: a few descriptors (`/dev/null`) are held from the start. On the
/// first failed accept, reading from the listening socket stops (no more
/// accept calls: they would take the freed descriptors) and the held ones
/// are closed, which leaves them to libdispatch's check, a reload's reading
/// of the configuration, SQLite or the log, even when some of these open at
/// once. Every `retryInterval` the handler tries to take them back and one
/// more; when it can, there is room for a connection besides them, and
/// accepting resumes (waiting clients are then answered).
///
/// It cannot help when the limit is lowered so far that even the held-back
/// descriptors (opened early, so low-numbered) lie above it, nor while
/// connections alone fill the limit to the last descriptor with accepting
/// still on: `FileDescriptorLimit`'s reserve is there so that they do not.
///
/// Added on the listening channel after `AcceptFailureLog`, which logs the
/// failure first. The errors it handles go no further: its pause replaces
/// NIO's `AcceptBackoffHandler` for them, which would otherwise hold back
/// accepting for a second more once descriptors are back.
final class OutOfDescriptorsPause: ChannelInboundHandler {
    typealias InboundIn = Channel

    /// How many descriptors are held back: room for the few opens todod
    /// may make at the same moment while it is short.
    static let heldBackCount = 4

    private let retryInterval: TimeAmount
    private let logger: Logger
    /// The descriptors held back; none while they are handed over (paused).
    private var heldBack: [Int32] = []
    private var retry: Scheduled<Void>?

    init(logger: Logger, retryInterval: TimeAmount = .milliseconds(100)) {
        self.logger = logger
        self.retryInterval = retryInterval
    }

    func handlerAdded(context: ChannelHandlerContext) {
        heldBack = Self.openSpares(Self.heldBackCount)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        retry?.cancel()
        retry = nil
        Self.close(heldBack)
        heldBack = []
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError, [EMFILE, ENFILE].contains(error.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        guard retry == nil else { return }  // already paused; a read that was under way failed too
        try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
        Self.close(heldBack)
        heldBack = []
        logger.debug("out of file descriptors: stopped accepting, and handed those held back to the rest of todod")
        scheduleRetry(context)
    }

    private func scheduleRetry(_ context: ChannelHandlerContext) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        retry = context.eventLoop.scheduleTask(in: retryInterval) {
            let (handler, context) = bound.value
            handler.retry = nil
            handler.resumeIfThereIsRoom(context)
        }
    }

    /// Takes the held-back descriptors back and resumes accepting if one
    /// more can be had besides them; otherwise leaves them free and tries
    /// again later.
    private func resumeIfThereIsRoom(_ context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        let opened = Self.openSpares(Self.heldBackCount + 1)
        guard opened.count == Self.heldBackCount + 1 else {
            Self.close(opened)
            scheduleRetry(context)
            return
        }
        Self.close(opened.suffix(1))
        heldBack = Array(opened.prefix(Self.heldBackCount))
        logger.debug("file descriptors are free again: accepting")
        try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
    }

    /// Up to `count` descriptors on `/dev/null`: fewer when they run out.
    private static func openSpares(_ count: Int) -> [Int32] {
        var opened: [Int32] = []
        for _ in 0..<count {
            let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { break }
            opened.append(descriptor)
        }
        return opened
    }

    private static func close(_ descriptors: some Sequence<Int32>) {
        for descriptor in descriptors { Glibc.close(descriptor) }
    }
}
