import BenchmarkSupport
import Dispatch
import Foundation

/// Durable mutations per second: `clients` connections to one todod, each
/// driven by its own thread, each keeping up to `window` `todo.add` requests
/// in flight (1 means it waits for every reply before sending the next).
/// todod replies to an edit only once it is committed and the write-ahead log
/// is synced, so every reply counted here is a durable edit.
///
/// The connections are opened and warmed up once; `run(for:)` then drives
/// them for one time slice, so slices can alternate with the anchors' and
/// every contender sees the same moments of a shared machine.
final class MutationLoad {
    let server: ServerProcess
    let clients: Int
    let window: Int
    private let connections: [LineSocket]
    /// Requests sent so far per client (their ids and titles stay unique).
    private var sent: [Int]

    struct Rate {
        var count = 0
        var seconds = 0.0
        /// todod's user + system CPU time over the same intervals.
        var cpuSeconds = 0.0
        var perSecond: Double { Double(count) / seconds }
        var cpuMicrosecondsPerEdit: Double { cpuSeconds * 1e6 / Double(count) }

        static func + (a: Rate, b: Rate) -> Rate {
            Rate(count: a.count + b.count, seconds: a.seconds + b.seconds, cpuSeconds: a.cpuSeconds + b.cpuSeconds)
        }
    }

    init(server: ServerProcess, clients: Int, window: Int) throws {
        self.server = server
        self.clients = clients
        self.window = window
        connections = try (0..<clients).map { _ in try server.connect() }
        sent = Array(repeating: 0, count: clients)
        // Warm up: a few edits each, so the first sync and the view's growth
        // from nothing are not in the figure.
        for (client, connection) in connections.enumerated() {
            for _ in 0..<10 {
                try connection.send(Self.request(id: sent[client], title: "warm-up \(sent[client])"))
                try Self.expectSuccess(try connection.readLine())
                sent[client] += 1
            }
        }
    }

    /// Drives every connection for `duration` (or `maximum` edits in all,
    /// whichever ends first), then waits for the replies still on their way;
    /// every reply counts.
    func run(for duration: Duration, maximum: Int = 200_000) throws -> Rate {
        let failures = FailureList()
        let counts = CountList(clients)
        let group = DispatchGroup()
        let window = window
        let perClient = maximum / clients
        let cpuBefore = try ProcessFigures.cpuSeconds(of: server.pid)
        let start = ContinuousClock.now
        let deadline = start + duration
        for (client, connection) in connections.enumerated() {
            group.enter()
            let first = sent[client]
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let answered = try Self.pipeline(
                        on: connection, from: first, count: perClient, window: window, until: deadline, client: client)
                    counts.set(client, answered)
                } catch {
                    failures.append("client \(client): \(error)")
                }
            }
        }
        group.wait()
        let seconds = (ContinuousClock.now - start).milliseconds / 1000
        let cpuAfter = try ProcessFigures.cpuSeconds(of: server.pid)
        if let failure = failures.first { throw BenchmarkError.failed(failure) }
        for client in 0..<clients { sent[client] += counts[client] }
        return Rate(count: counts.total, seconds: seconds, cpuSeconds: cpuAfter - cpuBefore)
    }

    /// Sends up to `count` adds on one connection with at most `window`
    /// unanswered, none after `deadline`; checks every reply is a success and
    /// returns how many there were.
    private static func pipeline(
        on connection: LineSocket, from first: Int, count: Int, window: Int, until deadline: ContinuousClock.Instant,
        client: Int
    ) throws -> Int {
        var sent = 0, answered = 0
        var limit = count
        while answered < limit {
            if limit > sent, ContinuousClock.now >= deadline { limit = sent }
            var batch: [UInt8] = []
            while sent < limit, sent - answered < window {
                batch += request(id: first + sent, title: "client \(client) item \(first + sent)")
                sent += 1
            }
            if !batch.isEmpty { try connection.send(batch) }
            guard answered < sent else { break }
            try expectSuccess(try connection.readLine())
            answered += 1
        }
        return answered
    }

    private static func request(id: Int, title: String) -> [UInt8] {
        Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"todo.add","params":{"title":"\#(title)"}}"#.utf8) + [UInt8(ascii: "\n")]
    }

    private static func expectSuccess(_ line: ArraySlice<UInt8>) throws {
        guard line.contains(Array(#""result""#.utf8)) else {
            throw BenchmarkError.failed("todod refused an edit: \(String(decoding: line.prefix(300), as: UTF8.self))")
        }
    }
}

/// Errors collected from the client threads.
final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [String] = []

    func append(_ failure: String) {
        lock.withLock { failures.append(failure) }
    }

    var first: String? { lock.withLock { failures.first } }
}

/// Replies counted by each client thread.
final class CountList: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int]

    init(_ clients: Int) { counts = Array(repeating: 0, count: clients) }

    func set(_ client: Int, _ count: Int) { lock.withLock { counts[client] = count } }

    subscript(client: Int) -> Int { lock.withLock { counts[client] } }

    var total: Int { lock.withLock { counts.reduce(0, +) } }
}
