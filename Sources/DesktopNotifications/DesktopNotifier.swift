import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Shows notifications on the user's desktop from async code: owns a
/// `NotificationBus` on a thread of its own (sd-bus is neither async nor
/// thread-safe) and reports what the server says as `events`.
///
/// **No bus, no server.** A missing session bus or notification server is
/// said once through `log` (and once more when it is back), not on every
/// attempt: `show` then answers nil and the caller keeps the reminder to
/// try again. Without a bus the thread tries to connect every
/// `retryInterval`; when it succeeds, `events` yields `.connected`, after
/// which everything shown before is gone and should be shown again.
public final class DesktopNotifier: Sendable {
    public enum Event: Sendable, Hashable {
        /// A (new) connection to the session bus: nothing is on screen from before.
        case connected(server: String?)
        case notification(NotificationEvent)
    }

    private enum Request {
        case show(DesktopNotification, @Sendable (UInt32?) -> Void)
        case close(UInt32)
    }

    public let events: AsyncStream<Event>
    private let input: AsyncStream<Event>.Continuation
    private let requests = Mutex<[Request]>([])
    private let stopped = Atomic<Bool>(false)
    private let attempts = Atomic<Int>(0)
    private let log: @Sendable (String) -> Void
    private let retryInterval: TimeInterval
    /// A pipe written to wake the bus thread when a request comes in.
    private let wakeReader: Int32
    private let wakeWriter: Int32

    public init(retryInterval: TimeInterval = 2, log: @escaping @Sendable (String) -> Void) {
        self.log = log
        self.retryInterval = retryInterval
        (events, input) = AsyncStream<Event>.makeStream()
        var pipeEnds: [Int32] = [-1, -1]
        if pipe(&pipeEnds) != 0 { fatalError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        for end in pipeEnds {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        (wakeReader, wakeWriter) = (pipeEnds[0], pipeEnds[1])
        // A queue of its own is a thread of its own for the blocking bus loop
        // (Foundation's Thread would link all of Foundation into todoctl).
        DispatchQueue(label: "todoctl.notify.bus").async { [self] in run() }
    }

    /// Shows `notification`; the server's id, or nil if there is no bus or no server.
    public func show(_ notification: DesktopNotification) async -> UInt32? {
        await withCheckedContinuation { continuation in
            requests.withLock { $0.append(.show(notification, { continuation.resume(returning: $0) })) }
            wake()
        }
    }

    public func close(_ id: UInt32) {
        requests.withLock { $0.append(.close(id)) }
        wake()
    }

    /// How many times the bus thread has tried to connect: what a caller
    /// (a test) waits on to know that it has tried again, not a clock.
    public var connectionAttempts: Int { attempts.load(ordering: .relaxed) }

    public func stop() {
        stopped.store(true, ordering: .relaxed)
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
    }

    // MARK: The bus thread

    /// What has been said about the bus and the server, so each is said once.
    private struct Said {
        var noBus = false
        var noServer = false
    }

    private func run() {
        var bus: NotificationBus?
        var said = Said()
        while !stopped.load(ordering: .relaxed) {
            if bus == nil {
                attempts.add(1, ordering: .relaxed)
                do {
                    bus = try NotificationBus()
                    let server = try? bus!.serverName()
                    if said.noBus { log("session bus reachable again") }
                    said = Said()
                    if server == nil {
                        said.noServer = true
                        log("no notification server on the session bus yet; reminders stay in todod until one starts")
                    }
                    input.yield(.connected(server: server))
                } catch {
                    if !said.noBus {
                        log("no session bus (\(error)); reminders stay in todod, retrying every \(Int(retryInterval)) s")
                        said.noBus = true
                    }
                    failPending()
                    usleep(UInt32(retryInterval * 1_000_000))
                    continue
                }
            }
            var drained = [UInt8](repeating: 0, count: 64)
            while read(wakeReader, &drained, drained.count) > 0 {}
            for request in requests.withLock({ pending in defer { pending = [] }; return pending }) {
                switch request {
                case .show(let notification, let reply):
                    do {
                        let id = try bus!.notify(notification)
                        if said.noServer {
                            log("notification server reachable again")
                            said.noServer = false
                        }
                        reply(id)
                    } catch {
                        if !said.noServer {
                            log("cannot show notifications (\(error)); reminders stay in todod, trying again later")
                            said.noServer = true
                        }
                        reply(nil)
                    }
                case .close(let id):
                    try? bus!.close(id)
                }
            }
            do {
                for event in try bus!.process() { input.yield(.notification(event)) }
                // Requests that came in while the bus was processed are served first.
                if requests.withLock({ $0.isEmpty }) { try bus!.wait(orUntilReadable: wakeReader) }
            } catch {
                log("lost the session bus (\(error)); reconnecting")
                said.noBus = true
                bus = nil
            }
        }
        failPending()
        input.finish()
    }

    private func failPending() {
        for request in requests.withLock({ pending in defer { pending = [] }; return pending }) {
            if case .show(_, let reply) = request { reply(nil) }
        }
    }
}
