import Foundation
import Synchronization
import TodoOwner
import TodoProtocol

/// Everything waiting to be written to one client, with a budget.
///
/// The state owner puts lines in without ever waiting; the connection's
/// channel handler is woken (`wake`, once per burst) and takes them out in
/// order, writing them to the socket with one flush per burst. A line counts
/// against the budget until the socket has taken it. What is queued is bounded:
///
/// - Over the **soft limit**, the connection is *lagging*: the queued events
///   are dropped (they would only be overtaken by newer ones), the client is
///   told with `connection.lagging`, and further events are dropped until it
///   has read what is queued; then the host sends each subscription one
///   reset event with the current state (coalescing everything it missed).
/// - Over the **hard limit** (replies pile up too, e.g. a client that sends
///   requests and never reads), or when **nothing could be written for the
///   stall timeout**, the client gets `connection.goodbye` and is closed.
///   What is queued is dropped, so the goodbye is next after the batch
///   the socket was already given, and the stall clock starts again: a
///   client that reads within the stall timeout of its goodbye gets it.
///   Only one that does not is closed without it.
///
/// Replies and notices are never dropped short of a goodbye.
final class ConnectionOutbox: Sendable {
    struct Limits: Sendable {
        var softBytes: Int
        var hardBytes: Int
        var stallTimeout: Duration
    }

    enum GoodbyeReason: String, Sendable {
        case outboxFull, stalled
    }

    let connectionID: Int
    let limits: Limits
    private let state: Mutex<State>
    /// Called (outside the lock) when a lagging connection has read everything queued.
    private let drained: @Sendable (_ connection: Int) -> Void
    /// Called (outside the lock) when a goodbye is queued, with its reason, for the log.
    private let saidGoodbye: @Sendable (_ connection: Int, _ reason: GoodbyeReason) -> Void
    /// Called (outside the lock) when the connection starts lagging, for the log.
    private let startedLagging: @Sendable (_ connection: Int, _ pendingBytes: Int) -> Void
    /// Called (outside the lock) when lines are waiting and the writer was
    /// not yet told: it should take them (`takeNext`) on its event loop.
    private let wake: @Sendable () -> Void
    /// The time, for the stall clock; a test's own clock in tests.
    private let now: @Sendable () -> ContinuousClock.Instant

    private struct Entry {
        /// Replies and notices are never dropped short of a goodbye; events are.
        enum Kind { case message, event, laggingNotice }
        var line: Data
        var kind: Kind
        var isEvent: Bool { kind == .event }
    }

    private struct State {
        var queue: [Entry] = []
        var head = 0
        /// Bytes queued, and the bytes of the line being written.
        var pendingBytes = 0
        var writing = 0
        var lagging = false
        var resyncRequested = false
        var goodbye: GoodbyeReason?
        var finished = false
        /// The writer was woken and has not yet taken everything.
        var woken = false
        var lastProgress: ContinuousClock.Instant

        var isEmpty: Bool { head == queue.count }

        func peekFirst() -> Entry? { head < queue.count ? queue[head] : nil }

        mutating func popFirst() -> Entry? {
            guard head < queue.count else { return nil }
            let entry = queue[head]
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            }
            return entry
        }

        mutating func dropEvents() {
            let kept = queue[head...].filter { !$0.isEvent }
            pendingBytes -= queue[head...].reduce(0) { $0 + $1.line.count } - kept.reduce(0) { $0 + $1.line.count }
            queue = Array(kept)
            head = 0
        }
    }

    init(
        connectionID: Int, limits: Limits,
        drained: @escaping @Sendable (Int) -> Void,
        saidGoodbye: @escaping @Sendable (Int, GoodbyeReason) -> Void,
        startedLagging: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
        wake: @escaping @Sendable () -> Void = {},
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.wake = wake
        self.now = now
        self.startedLagging = startedLagging
        self.connectionID = connectionID
        self.limits = limits
        self.drained = drained
        self.saidGoodbye = saidGoodbye
        state = Mutex(State(lastProgress: now()))
    }

    // MARK: Putting lines in

    /// Puts in the lines one turn of the owner decided, in order, under one
    /// lock, and wakes the writer once.
    func deliver(_ lines: ArraySlice<ConnectionLine>) {
        var told = Told()
        let wakeWriter = state.withLock { state -> Bool in
            let instant = now()
            for line in lines {
                switch line.line {
                case .message(let line): enqueue(Entry(line: line, kind: .message), to: &state, at: instant, told: &told)
                case .event(let line): enqueue(Entry(line: line, kind: .event), to: &state, at: instant, told: &told)
                case .resumeEvents(let lines):
                    state.lagging = false
                    state.resyncRequested = false
                    for line in lines { Self.append(Entry(line: line, kind: .event), to: &state, at: instant) }
                case .finish:
                    state.finished = true
                }
            }
            return Self.shouldWake(&state)
        }
        if let goodbye = told.goodbye { saidGoodbye(connectionID, goodbye) }
        if let lagged = told.lagged { startedLagging(connectionID, lagged) }
        if wakeWriter { wake() }
    }

    func send(_ line: Data) { deliver(.message(line)) }
    func sendEvent(_ line: Data) { deliver(.event(line)) }
    func resumeEvents(with lines: [Data]) { deliver(.resumeEvents(lines)) }
    /// No more lines after those queued (the connection is ending).
    func finish() { deliver(.finish) }

    private func deliver(_ line: OutgoingLine) {
        deliver([ConnectionLine(connection: connectionID, line: line)][...])
    }

    /// What to log once the lock is let go of.
    private struct Told {
        var goodbye: GoodbyeReason?
        /// The bytes pending when the connection started lagging.
        var lagged: Int?
    }

    private func enqueue(_ entry: Entry, to state: inout State, at now: ContinuousClock.Instant, told: inout Told) {
        guard state.goodbye == nil, !state.finished else { return }
        if entry.isEvent && state.lagging { return }
        // The limits count what was already waiting: a single line longer
        // than a limit (a 100,000-row snapshot) reaches a client that
        // reads, and one that does not read is stopped by its next line.
        let waitingBefore = state.pendingBytes
        Self.append(entry, to: &state, at: now)
        if waitingBefore > limits.hardBytes {
            told.goodbye = .outboxFull
            Self.sayGoodbye(.outboxFull, limits: limits, to: &state, at: now)
        } else if entry.isEvent && waitingBefore > limits.softBytes {
            let pending = state.pendingBytes
            told.lagged = pending
            state.dropEvents()
            state.lagging = true
            Self.append(
                Entry(
                    line: MessageEncoding.notification(
                        ConnectionLagging.self, params: .init(pendingBytes: pending, softLimitBytes: limits.softBytes)),
                    kind: .laggingNotice),
                to: &state, at: now)
        }
    }

    private static func append(_ entry: Entry, to state: inout State, at now: ContinuousClock.Instant) {
        if state.isEmpty && state.writing == 0 { state.lastProgress = now }  // the stall clock starts now
        state.queue.append(entry)
        state.pendingBytes += entry.line.count
    }

    /// Whether to wake the writer: there is something for it and it was not told yet.
    private static func shouldWake(_ state: inout State) -> Bool {
        guard !state.woken, !state.isEmpty || state.finished else { return false }
        state.woken = true
        return true
    }

    /// Drops what is queued and queues the goodbye, to follow the batch
    /// being written. The stall clock starts again: the client has a whole
    /// stall timeout to read its goodbye, however long it had been silent
    /// before (a client that sent requests for a while without reading
    /// would otherwise be closed at the next check, the goodbye unread).
    private static func sayGoodbye(
        _ reason: GoodbyeReason, limits: Limits, to state: inout State, at now: ContinuousClock.Instant
    ) {
        state.goodbye = reason
        state.lastProgress = now
        // What is queued will not be read in time; the lagging notice, if
        // queued, stays so the client learns the whole story.
        let lagging = state.queue[state.head...].filter { $0.kind == .laggingNotice }
        state.queue = Array(lagging)
        state.head = 0
        state.pendingBytes = lagging.reduce(0) { $0 + $1.line.count }
        let message: String =
            switch reason {
            case .outboxFull:
                "More than \(limits.hardBytes) bytes were waiting for this connection to read them; todod closes it."
            case .stalled:
                "Nothing could be written to this connection for \(limits.stallTimeout); todod closes it."
            }
        let line = MessageEncoding.notification(ConnectionGoodbye.self, params: .init(reason: reason.rawValue, message: message))
        state.queue.append(Entry(line: line, kind: .message))
        state.pendingBytes += line.count
        state.finished = true
    }

    // MARK: Taking lines out (the writer)

    /// What the writer should do next, on its event loop after a wake.
    enum Next: Equatable {
        /// Write these lines (one or more, whole), then ask again.
        case write(Data)
        /// Nothing more for now: flush; the next line wakes the writer again.
        case idle
        /// Everything was taken and no more will come: close once written.
        case close
    }

    /// Takes queued lines for the writer: the first, and those after it up
    /// to `batchBytes` in all. Under load a client gets many lines per
    /// write, and one flush per burst.
    func takeNext() -> Next {
        state.withLock { state in
            guard var batch = state.popFirst()?.line else {
                state.woken = false
                return state.finished ? .close : .idle
            }
            while let next = state.peekFirst(), batch.count + next.line.count <= Self.batchBytes {
                _ = state.popFirst()
                batch.append(next.line)
            }
            state.writing += batch.count
            return .write(batch)
        }
    }

    static let batchBytes = 64 * 1024

    /// The socket took `bytes` of what the writer took.
    func didWrite(_ bytes: Int) {
        let lagged = state.withLock { state -> Bool in
            state.pendingBytes -= bytes
            state.writing -= bytes
            state.lastProgress = now()
            guard state.isEmpty, state.writing == 0, state.lagging, !state.resyncRequested, state.goodbye == nil else {
                return false
            }
            state.resyncRequested = true
            return true
        }
        if lagged { drained(connectionID) }
    }

    // MARK: The stall watchdog

    enum StallCheck { case fine, sayGoodbye, close }

    /// Called periodically: whether data has been waiting with no write for
    /// the stall timeout. The first time, a goodbye is queued (a client that
    /// starts reading again still gets it); once a goodbye is queued, for
    /// whatever reason, close when nothing was written for the stall
    /// timeout since.
    func checkStall() -> StallCheck {
        let instant = now()
        let result = state.withLock { state -> StallCheck in
            guard !state.isEmpty || state.writing > 0, instant - state.lastProgress > limits.stallTimeout else { return .fine }
            if state.goodbye != nil { return .close }
            Self.sayGoodbye(.stalled, limits: limits, to: &state, at: instant)
            return .sayGoodbye
        }
        if result == .sayGoodbye { saidGoodbye(connectionID, .stalled) }
        return result
    }
}
