import BenchmarkSupport
import Foundation

/// A server that pushes one message to many subscribers: todod (`view.subscribe`,
/// then an edit) or Redis (`SUBSCRIBE`, then `PUBLISH`).
protocol FanOutServer {
    var framing: Framing { get }
    /// Bytes every pushed message contains.
    var eventMarker: [UInt8] { get }
    func connect() throws -> LineSocket
    /// Subscribes `connection` and reads the answer, leaving nothing unread.
    func subscribe(_ connection: LineSocket) throws
    /// Readies the connection that will publish (todod: a list to edit).
    func preparePublisher(_ connection: LineSocket) throws
    /// The request that makes the server push one message to every
    /// subscriber, as large as `bytes` where the server lets the client choose.
    func publication(_ round: Int, matching bytes: Int) -> [UInt8]
    /// Reads the publisher's own reply to `publication`.
    func readReply(on publisher: LineSocket, subscribers: Int) throws
}

/// Fan-out latency: `subscribers` connections subscribed to each server, one
/// more per server that publishes. For each round, the time from just before
/// the publishing write until each subscriber has read its message, measured
/// by one `FanOutReader` per server. The servers take turns round by round,
/// so they share the moments of a shared machine alike. The first rounds warm
/// up and are not counted.
struct FanOut {
    var subscribers: Int
    var rounds: Int
    var warmUpRounds = 5

    struct Result {
        /// One latency per subscriber and counted round, in microseconds.
        var latencies: [Double]
        /// The size of one pushed message as read by a subscriber.
        var messageBytes: Int
        var p50: Double { percentile(latencies, 0.5) }
        var p99: Double { percentile(latencies, 0.99) }
    }

    /// Publications after the first server's are as large as the first
    /// server's messages (`publication(_:matching:)`). `betweenRounds` runs
    /// after each round, to measure something else at the same moments.
    func run(_ servers: [any FanOutServer], betweenRounds: () throws -> Void = {}) throws -> [Result] {
        var publishers: [LineSocket] = []
        var readers: [FanOutReader] = []
        for server in servers {
            let publisher = try server.connect()
            try server.preparePublisher(publisher)
            var connections: [LineSocket] = []
            connections.reserveCapacity(subscribers)
            for _ in 0..<subscribers {
                let connection = try server.connect()
                try server.subscribe(connection)
                connections.append(connection)
            }
            publishers.append(publisher)
            readers.append(try FanOutReader(connections, framing: server.framing, marker: server.eventMarker))
        }
        var latencies = Array(repeating: [Double](), count: servers.count)
        for round in 0..<(warmUpRounds + rounds) {
            for (index, server) in servers.enumerated() {
                let request = server.publication(round, matching: readers[0].messageBytes)
                let start = ContinuousClock.now
                try publishers[index].send(request)
                let times = try readers[index].nextMessageEverywhere(since: start)
                try server.readReply(on: publishers[index], subscribers: subscribers)
                if round >= warmUpRounds { latencies[index] += times }
            }
            try betweenRounds()
        }
        return zip(latencies, readers).map { Result(latencies: $0, messageBytes: $1.messageBytes) }
    }
}

/// todod: every subscriber watches the main view of a list of `items` items;
/// each round toggles the middle one (so the list keeps its size), which is
/// one durable edit and one `view.changed` line per subscriber.
struct TododFanOut: FanOutServer {
    let server: ServerProcess
    var items = 50

    var framing: Framing { .lines }
    var eventMarker: [UInt8] { Array(#""method":"view.changed""#.utf8) }

    func connect() throws -> LineSocket { try server.connect() }

    func subscribe(_ connection: LineSocket) throws {
        try connection.send(Array(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe","params":{"view":"main"}}"#.utf8) + [10])
        let reply = try connection.readLine()
        guard reply.contains(Array(#""subscription""#.utf8)) else {
            throw BenchmarkError.failed("view.subscribe failed: \(String(decoding: reply.prefix(300), as: UTF8.self))")
        }
    }

    func preparePublisher(_ connection: LineSocket) throws {
        for index in 0..<items {
            let request = #"{"jsonrpc":"2.0","id":\#(index),"method":"todo.add","params":{"title":"item \#(index)"}}"#
            try connection.send(Array(request.utf8) + [10])
            try Self.expectResult(try connection.readLine())
        }
    }

    func publication(_ round: Int, matching bytes: Int) -> [UInt8] {
        Array(#"{"jsonrpc":"2.0","id":\#(round),"method":"todo.setDone","params":{"id":\#(items / 2),"done":\#(round % 2 == 0)}}"#.utf8) + [10]
    }

    func readReply(on publisher: LineSocket, subscribers: Int) throws {
        try Self.expectResult(try publisher.readLine())
    }

    static func expectResult(_ line: ArraySlice<UInt8>) throws {
        guard line.contains(Array(#""result""#.utf8)) else {
            throw BenchmarkError.failed("todod refused a request: \(String(decoding: line.prefix(300), as: UTF8.self))")
        }
    }
}

/// Redis: every subscriber `SUBSCRIBE`s to one channel; each round `PUBLISH`es
/// a payload as large as todod's event (so both push as much).
struct RedisFanOut: FanOutServer {
    let server: ServerProcess
    let channel = "todod-bench"

    var framing: Framing { .resp }
    var eventMarker: [UInt8] { Array("*3\r\n$7\r\nmessage\r\n".utf8) }

    func connect() throws -> LineSocket { try server.connect(greeting: false) }

    func subscribe(_ connection: LineSocket) throws {
        try connection.send(RESP.command("SUBSCRIBE", channel))
        // *3 / $9 / subscribe / $N / channel / :1, one line each.
        let lines = try (0..<6).map { _ in String(decoding: try connection.readLine(), as: UTF8.self) }
        guard lines[0] == "*3\r", lines[2] == "subscribe\r", lines[5] == ":1\r" else {
            throw BenchmarkError.failed("SUBSCRIBE failed: \(lines.joined(separator: "\n"))")
        }
    }

    func preparePublisher(_ connection: LineSocket) throws {}

    func publication(_ round: Int, matching bytes: Int) -> [UInt8] {
        let payload = Array("round \(round) ".utf8)
        let padded = payload + [UInt8](repeating: UInt8(ascii: "x"), count: max(0, bytes - payload.count))
        return RESP.command([Array("PUBLISH".utf8), Array(channel.utf8), padded])
    }

    func readReply(on publisher: LineSocket, subscribers: Int) throws {
        let reply = String(decoding: try publisher.readLine(), as: UTF8.self)
        guard reply == ":\(subscribers)\r" else {
            throw BenchmarkError.failed("PUBLISH reached \(reply) subscribers, not \(subscribers)")
        }
    }
}
