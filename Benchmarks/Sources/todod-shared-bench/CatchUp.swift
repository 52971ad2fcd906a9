import BenchmarkSupport
import Foundation

/// An instance that was down while others went on: instance B is stopped
/// (SIGTERM, as systemd stops it), `edits` separate changes are committed
/// through instance A (adds, each its own revision, sent pipelined on a few
/// connections so the part takes seconds), and B is started again. The
/// figure is the time from spawning B until its first `server.status`
/// answer that reports A's newest revision: until then a client of B sees
/// an old list. B keeps its data directory across restarts, as an
/// installed instance does.
///
/// For context, B is then restarted on the list it already has (nothing
/// changed while it was down): the difference is what the missed changes
/// cost. Each trial adds `edits` items, so trial k restarts on a list of
/// k × `edits` items.
struct CatchUp {
    let list: SharedList
    let parent: URL
    var edits = 10_000
    var trials = 2
    /// Connections and requests in flight on each, for the edits made while B is down.
    var fillClients = 4
    var fillWindow = 32

    struct Trial {
        /// Items in the list once B is back.
        var items: Int
        /// Seconds: spawn to the newest revision after the missed edits; the same on an unchanged list.
        var catchUp: Double
        var unchanged: Double
        /// The missed edits through A, per second.
        var fillRate: Double
    }

    func run() throws -> [Trial] {
        let data = parent.appendingPathComponent("catch-up-B-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: data) }
        let a = try list.start("A")
        defer { a.stop() }
        var b = try list.start("B", dataDirectory: data)
        defer { b.stop() }
        let load = try EditLoad(servers: [a], clients: fillClients, window: fillWindow, warmUp: 1)
        let status = try a.connect()
        var results: [Trial] = []
        for _ in 0..<trials {
            try expectCleanStop(b)
            let before = try status.statusRevision()
            let fill = try load.run(for: .seconds(600), maximum: edits)
            let newest = try status.statusRevision()
            guard fill.count == edits, newest == before + edits else {
                throw BenchmarkError.failed("\(fill.count) edits through A took the list from revision \(before) to \(newest), not \(edits) revisions")
            }
            b = try list.start("B", dataDirectory: data)
            let catchUp = try secondsToRevision(newest, on: b)
            try expectCleanStop(b)
            b = try list.start("B", dataDirectory: data)
            let unchanged = try secondsToRevision(newest, on: b)
            results.append(Trial(items: load.acknowledged, catchUp: catchUp, unchanged: unchanged, fillRate: fill.perSecond))
        }
        return results
    }

    /// From spawning `instance` until a `server.status` reply reports
    /// `revision` (asked again every millisecond, at most 60 s).
    private func secondsToRevision(_ revision: Int, on instance: ServerProcess) throws -> Double {
        let connection = try instance.connect()
        let deadline = ContinuousClock.now + .seconds(60)
        var seen = -1
        while true {
            seen = try connection.statusRevision()
            let now = ContinuousClock.now
            if seen >= revision { return (now - instance.spawnedAt).milliseconds / 1000 }
            guard now < deadline else {
                throw BenchmarkError.failed("B still served revision \(seen), not \(revision), 60 s after it started")
            }
            usleep(1000)
        }
    }

    private func expectCleanStop(_ instance: ServerProcess) throws {
        guard let status = instance.stop(), status == 0 else {
            throw BenchmarkError.failed("instance B did not stop cleanly on SIGTERM")
        }
    }
}
