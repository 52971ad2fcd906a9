import BenchmarkSupport
import Foundation

/// Fan-out latency: `subscribers` connections subscribed to the main view,
/// and one more that edits. For each edit (toggling one item, so the list
/// keeps its size), the time from sending it until each subscriber has read
/// its `view.changed` line.
struct FanOut {
    let server: ServerProcess
    let subscribers: Int
    /// Items in the list, so each event carries a realistic row edit.
    var items = 50

    func run(edits: Int) throws -> [Double] {
        let editor = try server.connect()
        for index in 0..<items {
            try editor.send(Array(#"{"jsonrpc":"2.0","id":\#(index),"method":"todo.add","params":{"title":"item \#(index)"}}"#.utf8) + [UInt8(ascii: "\n")])
            _ = try editor.readLine()
        }
        var connections: [LineSocket] = []
        for _ in 0..<subscribers {
            let connection = try server.connect()
            try connection.send(Array(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe","params":{"view":"main"}}"#.utf8) + [UInt8(ascii: "\n")])
            let reply = try connection.readLine()
            guard reply.contains(Array(#""subscription""#.utf8)) else {
                throw BenchmarkError.failed("subscribe failed: \(String(decoding: reply, as: UTF8.self))")
            }
            connections.append(connection)
        }
        let reader = try FanOutReader(connections)
        var latencies: [Double] = []
        latencies.reserveCapacity(edits * subscribers)
        for edit in 0..<(edits + 5) {
            let request = #"{"jsonrpc":"2.0","id":\#(edit),"method":"todo.setDone","params":{"id":\#(items / 2),"done":\#(edit % 2 == 0)}}"#
            let start = ContinuousClock.now
            try editor.send(Array(request.utf8) + [UInt8(ascii: "\n")])
            let times = try reader.nextLineEverywhere(since: start)
            _ = try editor.readLine()
            if edit >= 5 { latencies += times }  // the first few warm up
        }
        return latencies
    }
}
