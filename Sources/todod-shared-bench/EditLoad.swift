import BenchmarkSupport
import Foundation

/// Durable edits driven through one or more instances: `clients`
/// connections, dealt round-robin over `servers` (client 0 on the first,
/// client 1 on the second, …), each on its own thread over its own Unix
/// socket, each keeping up to `window` `todo.add` requests in flight. With a
/// window of 1 it is a closed loop, as pgbench's clients are: send, wait
/// for the reply, send the next. A reply comes only once the edit is
/// committed in PostgreSQL and flushed there, so every reply counted is a
/// durable edit.
///
/// The connections are opened and warmed up once; `run(for:maximum:)`
/// drives them for one slice, so slices can take turns with pgbench's and
/// both see the same moments of a shared machine.
final class EditLoad {
    let servers: [ServerProcess]
    let clients: Int
    let window: Int
    private let connections: [LineSocket]
    /// Requests sent so far per client (their ids and titles stay unique).
    private var sent: [Int]

    struct Rate {
        var count = 0
        var seconds = 0.0
        /// The instances' user + system CPU time over the same slices, all together.
        var cpuSeconds = 0.0
        var perSecond: Double { Double(count) / seconds }
        var cpuMicrosecondsPerEdit: Double { cpuSeconds * 1e6 / Double(count) }

        static func + (a: Rate, b: Rate) -> Rate {
            Rate(count: a.count + b.count, seconds: a.seconds + b.seconds, cpuSeconds: a.cpuSeconds + b.cpuSeconds)
        }
    }

    init(servers: [ServerProcess], clients: Int, window: Int = 1, warmUp: Int = 5) throws {
        self.servers = servers
        self.clients = clients
        self.window = window
        connections = try (0..<clients).map { try servers[$0 % servers.count].connect() }
        sent = Array(repeating: 0, count: clients)
        // The first commit of each connection's instance and the list's growth
        // from nothing stay out of the figures.
        for (client, connection) in connections.enumerated() {
            for _ in 0..<warmUp {
                try connection.send(Lines.add(id: sent[client], title: "client \(client) warm-up \(sent[client])"))
                try Lines.expectResult(try connection.readLine(), "an edit")
                sent[client] += 1
            }
        }
    }

    /// Every acknowledged edit so far, warm-ups included.
    var acknowledged: Int { sent.reduce(0, +) }

    /// Drives every connection for `duration` or until `maximum` edits in all
    /// (whichever comes first), then waits for the replies on their way;
    /// every reply counts.
    func run(for duration: Duration, maximum: Int = 10_000_000) throws -> Rate {
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
                batch += Lines.add(id: first + sent, title: "client \(client) item \(first + sent)")
                sent += 1
            }
            if !batch.isEmpty { try connection.send(batch) }
            guard answered < sent else { break }
            try Lines.expectResult(try connection.readLine(), "an edit")
            answered += 1
        }
        return answered
    }
}

/// Errors collected from the client threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [String] = []

    func append(_ failure: String) { lock.withLock { failures.append(failure) } }
    var first: String? { lock.withLock { failures.first } }
}

/// Replies counted by each client thread.
final class Counts: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int]

    init(_ clients: Int) { counts = Array(repeating: 0, count: clients) }

    func set(_ client: Int, _ count: Int) { lock.withLock { counts[client] = count } }
    subscript(client: Int) -> Int { lock.withLock { counts[client] } }
    var total: Int { lock.withLock { counts.reduce(0, +) } }
}
