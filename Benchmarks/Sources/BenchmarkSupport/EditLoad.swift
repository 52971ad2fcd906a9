import Foundation

/// Durable edits driven through one or more todod: `clients` connections,
/// dealt round-robin over `servers` (client 0 on the first, client 1 on the
/// second, …), each on its own thread over its own Unix socket, each keeping
/// up to `window` `todo.add` requests in flight. With a window of 1 it is a
/// closed loop, as pgbench's clients are: send, wait for the reply, send the
/// next. todod replies to an edit only once it is durable (its own store:
/// committed and the write-ahead log synced; a shared store: committed in
/// PostgreSQL and flushed there), so every reply counted is a durable edit.
///
/// One type for both socket benchmarks, so that "durable edits per second"
/// means the same load in `todod-protocol-bench` (one server) and in
/// `todod-shared-bench` (one instance, or several sharing a list).
///
/// The connections are opened and warmed up once; `run(for:maximum:)`
/// drives them for one slice, so slices can take turns with the anchors'
/// and every contender sees the same moments of a shared machine.
public final class EditLoad {
    public let servers: [ServerProcess]
    public let clients: Int
    public let window: Int
    private let connections: [LineSocket]
    /// Requests sent so far per client (their ids and titles stay unique).
    private var sent: [Int]

    public struct Rate {
        public var count: Int
        public var seconds: Double
        /// The servers' user + system CPU time over the same slices, all together.
        public var cpuSeconds: Double

        public init(count: Int = 0, seconds: Double = 0, cpuSeconds: Double = 0) {
            self.count = count
            self.seconds = seconds
            self.cpuSeconds = cpuSeconds
        }

        public var perSecond: Double { Double(count) / seconds }
        public var cpuMicrosecondsPerEdit: Double { cpuSeconds * 1e6 / Double(count) }

        public static func + (a: Rate, b: Rate) -> Rate {
            Rate(count: a.count + b.count, seconds: a.seconds + b.seconds, cpuSeconds: a.cpuSeconds + b.cpuSeconds)
        }
    }

    /// Opens the connections and sends `warmUp` edits on each, one at a time:
    /// the first commit of each connection's server and the list's growth
    /// from nothing stay out of the figures.
    public init(servers: [ServerProcess], clients: Int, window: Int = 1, warmUp: Int = 5) throws {
        self.servers = servers
        self.clients = clients
        self.window = window
        connections = try (0..<clients).map { try servers[$0 % servers.count].connect() }
        sent = Array(repeating: 0, count: clients)
        for (client, connection) in connections.enumerated() {
            for _ in 0..<warmUp {
                try connection.send(TodoLines.add(id: sent[client], title: "client \(client) warm-up \(sent[client])"))
                try TodoLines.expectResult(try connection.readLine(), "an edit")
                sent[client] += 1
            }
        }
    }

    /// Every acknowledged edit so far, warm-ups included.
    public var acknowledged: Int { sent.reduce(0, +) }

    /// Drives every connection for `duration` or until `maximum` edits in all
    /// (whichever comes first), then waits for the replies on their way;
    /// every reply counts.
    public func run(for duration: Duration, maximum: Int = 10_000_000) throws -> Rate {
        let failures = Failures()
        let counts = Counts(clients)
        let group = DispatchGroup()
        let window = window
        let perClient = maximum / clients
        let cpuBefore = try cpuSeconds()
        let start = ContinuousClock.now
        let deadline = start + duration
        for (client, connection) in connections.enumerated() {
            group.enter()
            let first = sent[client]
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    counts.set(
                        client,
                        try Self.drive(connection, from: first, count: perClient, window: window, until: deadline, client: client))
                } catch {
                    failures.append("client \(client): \(error)")
                }
            }
        }
        group.wait()
        let seconds = (ContinuousClock.now - start).milliseconds / 1000
        let cpuAfter = try cpuSeconds()
        if let failure = failures.first { throw BenchmarkError.failed(failure) }
        for client in 0..<clients { sent[client] += counts[client] }
        return Rate(count: counts.total, seconds: seconds, cpuSeconds: cpuAfter - cpuBefore)
    }

    private func cpuSeconds() throws -> Double {
        try servers.reduce(0) { $0 + (try ProcessFigures.cpuSeconds(of: $1.pid)) }
    }

    /// Sends up to `count` adds on one connection with at most `window`
    /// unanswered, none after `deadline`; checks every reply is a success and
    /// returns how many there were.
    private static func drive(
        _ connection: LineSocket, from first: Int, count: Int, window: Int, until deadline: ContinuousClock.Instant, client: Int
    ) throws -> Int {
        var sent = 0, answered = 0
        var limit = count
        while answered < limit {
            if limit > sent, ContinuousClock.now >= deadline { limit = sent }
            var batch: [UInt8] = []
            while sent < limit, sent - answered < window {
                batch += TodoLines.add(id: first + sent, title: "client \(client) item \(first + sent)")
                sent += 1
            }
            if !batch.isEmpty { try connection.send(batch) }
            guard answered < sent else { break }
            try TodoLines.expectResult(try connection.readLine(), "an edit")
            answered += 1
        }
        return answered
    }
}

/// Errors collected from the client threads.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [String] = []

    func append(_ failure: String) { lock.withLock { failures.append(failure) } }
    var first: String? { lock.withLock { failures.first } }
}

/// Replies counted by each client thread.
private final class Counts: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int]

    init(_ clients: Int) { counts = Array(repeating: 0, count: clients) }

    func set(_ client: Int, _ count: Int) { lock.withLock { counts[client] = count } }
    subscript(client: Int) -> Int { lock.withLock { counts[client] } }
    var total: Int { lock.withLock { counts.reduce(0, +) } }
}
