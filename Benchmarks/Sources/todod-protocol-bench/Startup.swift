import BenchmarkSupport
import Foundation

/// Start to READY with a full list: a data directory filled with `items` items
/// through todod itself (`transaction`s of 1,000 `todo.add`), stopped cleanly
/// (SIGTERM), then, `starts` times, the time from spawning todod until the
/// first reply to `server.status` is read, and todod's resident memory right
/// then. The database is in the page cache (it was just written), as it is
/// for a restart; a cold boot reads it from the disk as well.
struct Startup {
    let parent: URL
    var items = 100_000
    var starts = 3

    struct Result {
        var fillSeconds: Double
        /// Per start: seconds to the first reply, and resident bytes then.
        var times: [Double]
        var residentBytes: [Double]
        var medianSeconds: Double { percentile(times, 0.5) }
        var largestResidentBytes: Double { residentBytes.max() ?? 0 }
    }

    func run() throws -> Result {
        let data = parent.appendingPathComponent("startup-data-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: data) }
        let (_, fillMilliseconds) = try measure {
            let todod = try ServerProcess.todod(in: parent, dataDirectory: data)
            let connection = try todod.connect()
            var next = 0
            while next < items {
                let commands = (next..<min(items, next + 1000)).map {
                    #"{"method":"todo.add","params":{"title":"item \#($0)"}}"#
                }
                let request = #"{"jsonrpc":"2.0","id":\#(next),"method":"transaction","params":{"commands":["#
                    + commands.joined(separator: ",") + "]}}"
                try connection.send(Array(request.utf8) + [10])
                let reply = try connection.readLine()
                guard reply.contains(Array(#""result""#.utf8)) else {
                    throw BenchmarkError.failed("filling failed: \(String(decoding: reply.prefix(300), as: UTF8.self))")
                }
                next += commands.count
            }
            try expectCleanStop(todod)
        }
        var times: [Double] = []
        var resident: [Double] = []
        let status = Array(#"{"jsonrpc":"2.0","id":1,"method":"server.status"}"#.utf8) + [10]
        for _ in 0..<starts {
            let todod = try ServerProcess.todod(in: parent, dataDirectory: data)
            let connection = try todod.connect()
            try connection.send(status)
            let reply = try connection.readLine()
            let elapsed = (ContinuousClock.now - todod.spawnedAt).milliseconds / 1000
            resident.append(try ProcessFigures.residentBytes(of: todod.pid))
            guard reply.contains(Array(#""items":\#(items)"#.utf8)) else {
                throw BenchmarkError.failed("todod did not load \(items) items: \(String(decoding: reply.prefix(300), as: UTF8.self))")
            }
            times.append(elapsed)
            try expectCleanStop(todod)
        }
        return Result(fillSeconds: fillMilliseconds / 1000, times: times, residentBytes: resident)
    }

    private func expectCleanStop(_ todod: ServerProcess) throws {
        guard let status = todod.stop(), status == 0 else {
            throw BenchmarkError.failed("todod did not stop cleanly on SIGTERM")
        }
    }
}
