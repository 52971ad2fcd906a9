import BenchmarkSupport
import Foundation

/// Durable edits per second at a client count, through one instance and
/// through three sharing one list, against pgbench's `simple-update` with
/// as many clients on the same server.
///
/// Each todod setup has a list (a database) of its own, fresh for each
/// client count; the three instances all run for the whole part, so the
/// others' commits reach each one (NOTIFY, change log) as they would in
/// use. pgbench, the lone instance and the three take turns in slices of
/// `slice`, `rounds` times after one round that is not counted (it warms
/// the caches and each list's tables up); each figure pools its slices.
///
/// Afterwards the three instances must agree: the same revision, and every
/// acknowledged add in the list. A difference is a lost edit and fails the
/// run. Then PostgreSQL says how the edits were committed (`CommitCounts`).
struct Throughput {
    let pgbench: Pgbench
    let makeList: (String) throws -> SharedList
    var rounds = 3
    var slice = 2

    struct Result {
        var clients: Int
        var pgbench = Pgbench.Rate()
        var one = EditLoad.Rate()
        var three = EditLoad.Rate()
        /// What PostgreSQL saw of each list's commits.
        var oneCommits = CommitCounts()
        var threeCommits = CommitCounts()
    }

    func run(clients: Int) throws -> Result {
        let lone = try makeList("one_\(clients)")
        let shared = try makeList("three_\(clients)")
        try CommitCounts.enable(on: lone)
        try CommitCounts.enable(on: shared)
        let soloInstance = try lone.start("solo")
        let instances = try ["a", "b", "c"].map { try shared.start($0) }
        defer {
            soloInstance.stop()
            for instance in instances { instance.stop() }
        }
        let one = try EditLoad(servers: [soloInstance], clients: clients)
        let three = try EditLoad(servers: instances, clients: clients)
        var result = Result(clients: clients)
        for round in 0...rounds {
            let counted = round > 0
            let anchor = try pgbench.run(clients: clients, seconds: slice)
            let oneRate = try one.run(for: .seconds(slice))
            let threeRate = try three.run(for: .seconds(slice))
            if counted {
                result.pgbench = result.pgbench + anchor
                result.one = result.one + oneRate
                result.three = result.three + threeRate
            }
        }
        try Self.expectAgreement(instances, acknowledged: three.acknowledged)
        try Self.expectAgreement([soloInstance], acknowledged: one.acknowledged)
        let statuses = ([soloInstance] + instances).map { $0.stop() }
        guard statuses.allSatisfy({ $0 == 0 }) else {
            throw BenchmarkError.failed("the instances did not all stop cleanly on SIGTERM: exit statuses \(statuses)")
        }
        result.oneCommits = try CommitCounts.read(lone)
        result.threeCommits = try CommitCounts.read(shared)
        return result
    }

    /// Waits (at most 10 s) until every instance serves the same revision,
    /// then checks each holds `acknowledged` items (only adds were made).
    static func expectAgreement(_ instances: [ServerProcess], acknowledged: Int) throws {
        let connections = try instances.map { try $0.connect() }
        let deadline = ContinuousClock.now + .seconds(10)
        var statuses: [[String: Any]] = []
        while true {
            statuses = try connections.map { connection in
                try connection.send(TodoLines.status(id: 1))
                return try TodoLines.object(try connection.readLine())["result"] as? [String: Any] ?? [:]
            }
            let revisions = Set(statuses.map { $0["revision"] as? Int ?? -1 })
            if revisions.count == 1 { break }
            guard ContinuousClock.now < deadline else {
                throw BenchmarkError.failed("the instances still serve different revisions 10 s after the load: \(revisions.sorted())")
            }
            usleep(10_000)
        }
        let items = statuses.map { $0["items"] as? Int ?? -1 }
        guard items.allSatisfy({ $0 == acknowledged }) else {
            throw BenchmarkError.failed("\(acknowledged) adds were acknowledged, but the instances hold \(items) items")
        }
    }
}
