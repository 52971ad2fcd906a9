import BenchmarkSupport
import Foundation
import PostgresTestSupport

/// `todod-shared-bench`: several todod instances sharing one list through
/// PostgreSQL, against PostgreSQL's own pgbench on the same server, in one run.
///
/// Run it with `scripts/bench shared-store` (which builds todod and this in
/// release mode), or after release builds: `TODOD_BIN_DIR=.build/release
/// Benchmarks/.build/release/todod-shared-bench [--clients 1,8,32] [latency] [throughput] [catch-up]`
/// (all parts unless some are named). It makes a throwaway PostgreSQL
/// cluster (`PostgresCluster`: initdb under /tmp, fsync and
/// synchronous_commit on, loopback TCP with a password), starts the release
/// todod in `TODOD_BIN_DIR` as instances of a list
/// (`--store postgres://…@127.0.0.1:PORT/DB --instance NAME`), talks to them
/// over their Unix sockets with plain blocking sockets, and measures next to
/// them, on the same server over the same TCP, pgbench's built-in
/// `simple-update` (`Pgbench`):
///
/// - `latency`: an edit on instance A until instance B's subscriber has its
///   `view.changed` (p50, p99; target p99 ≤ 10 ms), and A's own reply,
///   against one pgbench client's transaction time (`EditToEvent`).
/// - `throughput`: durable edits per second with N closed-loop clients
///   through one instance and spread over three, against pgbench with N
///   clients (target ≥ 0.5× its TPS) (`Throughput`).
/// - `catch-up`: an instance restarted after 10,000 changes were made
///   through another, until it serves the newest revision (target ≤ 2 s),
///   next to a restart with nothing missed (`CatchUp`).
///
/// The run ends with a table of todod's figures, their anchors, ratios and
/// targets, and the command that made it.
@main
struct SharedStoreBenchmark {
    static let defaultClients = [1, 8, 32]

    static func main() {
        var commandLine = BenchmarkCommandLine(
            program: "todod-shared-bench", flagsUsage: "[--clients N,N,...]", parts: ["latency", "throughput", "catch-up"])
        var clients = defaultClients
        if let clientsFlag = commandLine.takeValue(of: "--clients") {
            let counts = clientsFlag.split(separator: ",").compactMap { Int($0) }
            guard !counts.isEmpty, counts.allSatisfy({ (1...64).contains($0) }) else {
                commandLine.refuse("--clients takes counts from 1 to 64")
            }
            clients = counts
        }
        let parts = commandLine.selectedParts()
        let rerun = commandLine.command(
            "scripts/bench shared-store",
            flags: clients == defaultClients ? [] : ["--clients", clients.map(String.init).joined(separator: ",")], ran: parts)
        commandLine.run(scratchUnder: FileManager.default.temporaryDirectory) { scratch in
            try run(parts: parts, clients: clients, scratch: scratch, rerun: rerun)
        }
    }

    /// Runs `parts` with `clients` for the throughput part and the
    /// instances' files under `scratch`; `rerun` is the command the summary names.
    static func run(parts: Set<String>, clients: [Int], scratch: URL, rerun: String) throws {
        // Instances and pgbench clients on one server, under its max_connections of 100.
        try ProcessFigures.allowOpenFiles(1024)

        print("todod-shared-bench: release build expected; instances under \(scratch.path)")
        let report = Report()
        report.printLoadAverageAtStart()
        let cluster = try PostgresCluster(name: "todod-shared-bench")
        defer { cluster.destroy() }
        SharedList.usePasswordFile(of: cluster)
        let pgbench = try Pgbench(cluster: cluster, database: "pgbench", directory: scratch)
        print("\(pgbench.version): a throwaway cluster in \(cluster.directory), fsync and synchronous_commit on;")
        print("  todod and pgbench reach it over TCP 127.0.0.1:\(cluster.port) as role \(cluster.user) with a password file")

        if parts.contains("latency") {
            let part = EditToEvent(list: try SharedList(cluster: cluster, database: "latency", parent: scratch))
            report.section(
                "edit on A until B's subscriber has the event, one todo.add at a time (\(part.turns * part.perTurn) after \(part.warmUp), in turns with pgbench -c 1)")
            var anchor: [Double] = []
            let result = try part.run { anchor += try pgbench.transactionTimes(seconds: 1) }
            let (anchorP50, anchorP99) = (percentile(anchor, 0.5), percentile(anchor, 0.99))
            report.say("pgbench -c 1 simple-update transaction: p50", anchorP50, "ms", "(\(anchor.count) transactions)")
            report.say("pgbench -c 1 simple-update transaction: p99", anchorP99, "ms")
            report.compare(
                "edit on A → B's view.changed: p50", percentile(result.events, 0.5), "ms", anchor: ("pgbench p50", anchorP50),
                goal: nil, figure: "edit on A → event on B's subscriber, p50")
            report.compare(
                "edit on A → B's view.changed: p99", percentile(result.events, 0.99), "ms", anchor: ("pgbench p99", anchorP99),
                goal: .atMost(10), figure: "edit on A → event on B's subscriber, p99")
            report.compare(
                "A's own reply to the add: p50", percentile(result.replies, 0.5), "ms", anchor: ("pgbench p50", anchorP50),
                goal: nil, figure: "A's reply to the same edits, p50 (information)")
            report.compare(
                "A's own reply to the add: p99", percentile(result.replies, 0.99), "ms", anchor: ("pgbench p99", anchorP99),
                goal: nil, figure: "A's reply to the same edits, p99 (information)")
            report.note(
                "(\(result.events.count) samples, revisions \(result.revisions.map { "\($0.lowerBound)–\($0.upperBound)" } ?? "—"), "
                    + "every one seen by B in order; subscriber: main view, properties [\"itemsLeft\"])")
        }

        if parts.contains("throughput") {
            let part = Throughput(pgbench: pgbench) { name in
                try SharedList(cluster: cluster, database: name, parent: scratch)
            }
            report.section(
                "durable edits per second, closed-loop clients, against pgbench -b simple-update at as many clients (\(part.rounds) rounds of \(part.slice) s each after one to warm up)")
            for count in clients {
                let result = try part.run(clients: count)
                let clientCount = count == 1 ? "1 client" : "\(count) clients"
                let anchor = ("pgbench -c \(count)", result.pgbench.perSecond)
                report.say("pgbench -c \(count) -j \(count) simple-update: TPS", result.pgbench.perSecond, "/s")
                report.compare(
                    "todod, \(clientCount), one instance", result.one.perSecond, "/s", anchor: anchor, goal: .atLeastTimes(0.5),
                    figure: "durable edits/s, \(clientCount), one instance")
                report.compare(
                    "todod, \(clientCount) over three instances", result.three.perSecond, "/s", anchor: anchor,
                    goal: .atLeastTimes(0.5), figure: "durable edits/s, \(clientCount) over three instances")
                report.note(
                    "(pgbench \(grouped(result.pgbench.transactions)) transactions, one instance \(grouped(result.one.count)) edits, "
                        + "three \(grouped(result.three.count)) edits, in \(ReportLine.format(result.one.seconds)) s each; the three agree)")
                report.note("one instance, whole part: \(result.oneCommits.summary); todod CPU \(Report.figure(result.one.cpuMicrosecondsPerEdit, "µs")) per edit")
                report.note(
                    "three instances, whole part: \(result.threeCommits.summary); todod CPU (all three) \(Report.figure(result.three.cpuMicrosecondsPerEdit, "µs")) per edit")
            }
        }

        if parts.contains("catch-up") {
            let part = CatchUp(list: try SharedList(cluster: cluster, database: "catch_up", parent: scratch), parent: scratch)
            report.section(
                "restart of B after \(grouped(part.edits)) changes through A while B was down, to B serving the newest revision (\(part.trials) trials)")
            let trials = try part.run()
            for (index, trial) in trials.enumerated() {
                report.note(
                    "trial \(index + 1): \(grouped(trial.items)) items; missed edits made at \(ReportLine.format(trial.fillRate))/s; "
                        + "back after \(ReportLine.format(trial.catchUp * 1000)) ms, unchanged restart \(ReportLine.format(trial.unchanged * 1000)) ms")
            }
            let unchanged = percentile(trials.map(\.unchanged), 0.5)
            report.say("restart on an unchanged list, median", unchanged, "s")
            report.compare(
                "restart after \(grouped(part.edits)) missed changes, slowest", trials.map(\.catchUp).max()!, "s",
                anchor: ("unchanged restart", unchanged), goal: .atMost(2),
                figure: "serving the newest revision after \(grouped(part.edits)) missed changes (slowest of \(trials.count))")
        }

        report.finish(command: rerun)
    }

    /// 10000 as "10,000", as the issue writes it.
    static func grouped(_ number: Int) -> String {
        var digits = String(number)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return digits
    }
}
