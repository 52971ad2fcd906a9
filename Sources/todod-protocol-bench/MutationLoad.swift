import BenchmarkSupport
import Dispatch
import Foundation

/// Durable mutations per second: `clients` connections, each on its own
/// thread, each keeping up to `window` `todo.add` requests in flight (1 means
/// it waits for every reply before sending the next). todod replies to an edit
/// only once it is committed and the write-ahead log is synced, so every
/// reply counted here is a durable edit.
struct MutationLoad {
    let server: ServerProcess
    let clients: Int
    let window: Int
    /// Edits in the whole run, shared among the clients.
    var total = 20_000

    struct Rate {
        var count: Int
        var seconds: Double
        var perSecond: Double { Double(count) / seconds }
    }

    func run() throws -> Rate {
        let connections = try (0..<clients).map { _ in try server.connect() }
        let perClient = total / clients
        // Warm up: a few edits each, so the first sync and the view's growth
        // from nothing are not in the figure.
        for connection in connections {
            for index in 0..<10 { try Self.add(on: connection, id: index, title: "warm-up \(index)") }
        }
        let failures = FailureList()
        let group = DispatchGroup()
        let window = window
        let start = ContinuousClock.now
        for (clientIndex, connection) in connections.enumerated() {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    try Self.pipeline(on: connection, count: perClient, window: window, client: clientIndex)
                } catch {
                    failures.append("client \(clientIndex): \(error)")
                }
            }
        }
        group.wait()
        let seconds = (ContinuousClock.now - start).milliseconds / 1000
        if let failure = failures.first { throw BenchmarkError.failed(failure) }
        return Rate(count: perClient * clients, seconds: seconds)
    }

    /// Sends `count` adds on one connection with at most `window` unanswered,
    /// and checks every reply is a success.
    private static func pipeline(on connection: LineSocket, count: Int, window: Int, client: Int) throws {
        var sent = 0, answered = 0
        while answered < count {
            var batch: [UInt8] = []
            while sent < count, sent - answered < window {
                batch += request(id: sent, title: "client \(client) item \(sent)")
                sent += 1
            }
            if !batch.isEmpty { try connection.send(batch) }
            try expectSuccess(try connection.readLine())
            answered += 1
        }
    }

    private static func add(on connection: LineSocket, id: Int, title: String) throws {
        try connection.send(request(id: id, title: title))
        try expectSuccess(try connection.readLine())
    }

    private static func request(id: Int, title: String) -> [UInt8] {
        Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"todo.add","params":{"title":"\#(title)"}}"#.utf8) + [UInt8(ascii: "\n")]
    }

    private static func expectSuccess(_ line: ArraySlice<UInt8>) throws {
        guard line.contains(Array(#""result""#.utf8)) else {
            throw BenchmarkError.failed("todod refused an edit: \(String(decoding: line, as: UTF8.self))")
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
