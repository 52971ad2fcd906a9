import BenchmarkSupport
import Foundation

/// `todod-protocol-bench`: todod over its socket, against its anchors, in one run.
///
/// Run it with `scripts/bench protocol` (which builds todod and this in
/// release mode and installs Debian's Redis), or after release builds:
/// `TODOD_BIN_DIR=.build/release Benchmarks/.build/release/todod-protocol-bench [--data-parent DIR] [round-trip]
/// [mutations] [fan-out] [startup]` (all parts unless some are named). Each
/// part starts a fresh todod (the release build in `TODOD_BIN_DIR`) with
/// its data in a new directory under `DIR` (default: the system's temporary
/// directory; the disk it is on decides the cost of a sync), and talks to it
/// over a real Unix socket with plain blocking sockets. Next to each todod
/// figure it measures, in the same run and on the same disk, the anchor the
/// figure is judged against:
///
/// - `round-trip`: `server.status` on one persistent connection (median,
///   p99) against the floor, a line as long echoed by a minimal server process
///   (`EchoServer`); Redis's `PING` for information.
/// - `mutations`: durable `todo.add` per second (each reply comes only after
///   the edit is committed and the write-ahead log synced), one client
///   waiting for each reply, one keeping 256 in flight, 50 clients; against
///   raw SQLite's durable commit rate (`RawSQLite`) and `redis-benchmark -t
///   set` on a Redis that syncs every write (`-c 1`, `-c 1 -P 256`, `-c 50`);
///   and todod's CPU time per edit in the 50-client run.
/// - `fan-out`: one edit until each of 100, then 1,000 subscribers has its
///   `view.changed` line, against Redis `PUBLISH` to as many `SUBSCRIBE`rs,
///   timed by the same reader (p50, p99), with one raw SQLite commit timed
///   between the rounds (the 100-subscriber target allows Redis's p99 plus one).
/// - `startup`: from spawning todod on 100,000 stored items until its first
///   reply to `server.status`, and its resident memory then.
///
/// Where the machine is shared, a disk's sync rate and a core's share swing
/// from one second to the next, so a figure and its anchor are measured in
/// turns (round trips in turns of 1,000, edits in slices of a second or so,
/// fan-out round by round) and each pools its turns. The run ends with a table
/// of todod's figures, their anchors, ratios and targets.
@main
struct ProtocolBenchmark {
    static func main() {
        var commandLine = BenchmarkCommandLine(
            program: "todod-protocol-bench", flagsUsage: "[--data-parent DIR]",
            parts: ["round-trip", "mutations", "fan-out", "startup"])
        if commandLine.arguments.first == "--echo-server", commandLine.arguments.count == 2 {
            do { try EchoServer.run(path: commandLine.arguments[1]) } catch { commandLine.fail("echo server: \(error)") }
        }
        let parentFlag = commandLine.takeValue(of: "--data-parent")
        let parts = commandLine.selectedParts()
        let parent = parentFlag.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        let rerun = commandLine.command(
            "scripts/bench protocol", flags: parentFlag == nil ? [] : ["--data-parent", parent.path], ran: parts)
        // Every server is stopped when `run` returns or throws (ServerProcess's deinit).
        commandLine.run(scratchUnder: parent) { scratch in try run(parts: parts, scratch: scratch, rerun: rerun) }
    }

    /// Runs `parts` with their data under `scratch`; `rerun` is the command
    /// the summary names.
    static func run(parts: Set<String>, scratch: URL, rerun: String) throws {
        let fanOutSizes = [(subscribers: 100, rounds: 200), (subscribers: 1000, rounds: 40)]
        let largestFanOut = fanOutSizes.map(\.subscribers).max()!
        // Both servers' subscribers are connected at once.
        if parts.contains("fan-out") { try ProcessFigures.allowOpenFiles(2 * largestFanOut + 256) }

        let report = Report()
        let needsRedis = !parts.isDisjoint(with: ["round-trip", "mutations", "fan-out"])
        print("todod-protocol-bench: release build expected; data under \(scratch.path) (\(fileSystem(of: scratch)))")
        report.printLoadAverageAtStart()
        let redis = needsRedis ? try ServerProcess.redis(in: scratch, maxClients: largestFanOut + 64) : nil
        if redis != nil { print("Redis \(Redis.version): Unix socket, appendonly yes, appendfsync always, same disk") }

        // Raw SQLite is the anchor of two parts; one database serves both.
        let sqlite = parts.isDisjoint(with: ["mutations", "fan-out"]) ? nil : try RawSQLite(parent: scratch)

        if parts.contains("round-trip"), let redis {
            report.section("round trip, one client, one persistent connection (\(roundTrips) each, in turns of \(roundTripTurn))")
            let line = Array(#"{"jsonrpc":"2.0","id":1,"method":"server.status"}"#.utf8) + [10]
            let echo = try ServerProcess.echo(in: scratch)
            let todod = try ServerProcess.todod(in: scratch)
            let times = try timeRoundTrips([
                (try echo.connect(greeting: false), line), (try redis.connect(greeting: false), RESP.command("PING")),
                (try todod.connect(), line),
            ])
            echo.stop()
            todod.stop()
            let (floor, ping, roundTrip) = (times[0], times[1], times[2])
            report.say("floor: echo of a \(line.count)-byte line: median", floor.median, "µs")
            report.say("floor: p99", floor.p99, "µs")
            report.say("Redis PING: median", ping.median, "µs")
            report.compare(
                "todod server.status: median", roundTrip.median, "µs", anchor: ("echo floor", floor.median),
                goal: .atMostTimes(2.5), figure: "`server.status` round trip, median")
            report.compare(
                "todod server.status: median, against Redis PING", roundTrip.median, "µs",
                anchor: ("Redis PING", ping.median), goal: nil, figure: "`server.status` round trip, median (information)")
            report.compare(
                "todod server.status: p99", roundTrip.p99, "µs", anchor: ("echo floor p99", floor.p99), goal: nil,
                figure: "`server.status` round trip, p99 (information)")
        }

        if parts.contains("mutations"), let redis, let sqlite {
            report.section(
                "durable edits: raw SQLite, Redis syncing every write, todod's todo.add (\(mutationRounds) rounds in turns, after one to warm up)")
            // One todod per load, each fresh; the contenders take turns, and
            // each figure pools its slices.
            let loads = try [(1, 1), (1, 256), (50, 1)].map { clients, window in
                try EditLoad(servers: [try ServerProcess.todod(in: scratch)], clients: clients, window: window, warmUp: 10)
            }
            var rates = Array(repeating: EditLoad.Rate(), count: loads.count)
            var sqliteResult = RawSQLite.Result()
            // The redis-benchmark runs, each sized for about a second from its
            // last rate, or at first from the disk's sync rate.
            let redisRuns = [(clients: 1, pipeline: 1, perSync: 1.0, range: 200...20_000),
                             (clients: 1, pipeline: 256, perSync: 90.0, range: 10_000...1_000_000),
                             (clients: 50, pipeline: 1, perSync: 12.0, range: 2_000...200_000)]
            var redisTotals = Array(repeating: (requests: 0, seconds: 0.0), count: redisRuns.count)
            var redisLastRates = Array(repeating: 0.0, count: redisRuns.count)
            var diskRate = 0.0
            func runRedis(_ index: Int, counted: Bool) throws {
                let run = redisRuns[index]
                let estimate = redisLastRates[index] > 0 ? redisLastRates[index] : diskRate * run.perSync
                let batch = run.clients * run.pipeline
                let requests = min(run.range.upperBound, max(run.range.lowerBound, Int(estimate))) / batch * batch
                let rate = try Redis.benchmarkSet(socket: redis.socket, clients: run.clients, pipeline: run.pipeline, requests: requests)
                redisLastRates[index] = rate
                if counted {
                    redisTotals[index].requests += requests
                    redisTotals[index].seconds += Double(requests) / rate
                }
            }
            func runTodod(_ index: Int, counted: Bool) throws {
                let rate = try loads[index].run(for: .seconds(1), maximum: 200_000)
                if counted { rates[index] = rates[index] + rate }
            }
            // Each todod figure next to its anchor: the disk's rate then todod
            // one at a time; Redis with 50 clients then todod's two loads it
            // is judged against; the information-only anchors after. The first
            // round warms every contender up and is not counted: it sizes the
            // redis-benchmark runs and brings each todod's write-ahead log to
            // its working size, as RawSQLite does for its own.
            for round in 0...mutationRounds {
                let counted = round > 0
                let disk = try sqlite.run(for: .seconds(1))
                diskRate = disk.perSecond
                if counted { sqliteResult = sqliteResult + disk }
                try runTodod(0, counted: counted)
                try runRedis(2, counted: counted)
                try runTodod(1, counted: counted)
                try runTodod(2, counted: counted)
                try runRedis(0, counted: counted)
                try runRedis(1, counted: counted)
            }
            for server in loads.flatMap(\.servers) { server.stop() }
            report.say(
                "raw SQLite: commits per second", sqliteResult.perSecond, "/s",
                "(\(sqliteResult.commits) in \(ReportLine.format(sqliteResult.seconds * 1000)) ms)")
            report.say("raw SQLite: one commit, median", sqliteResult.medianMicroseconds, "µs")
            report.say("raw SQLite: one commit, p99", sqliteResult.p99Microseconds, "µs")
            let redisRates = redisTotals.map { Double($0.requests) / $0.seconds }
            report.say("Redis SET -c 1", redisRates[0], "/s")
            report.say("Redis SET -c 1 -P 256", redisRates[1], "/s")
            report.say("Redis SET -c 50", redisRates[2], "/s")
            for (load, rate) in zip(loads, rates) {
                report.note(
                    "todod, \(load.clients) client(s), window \(load.window): "
                        + "\(rate.count) edits in \(ReportLine.format(rate.seconds * 1000)) ms")
            }
            let (one, pipelined, fifty) = (rates[0], rates[1], rates[2])
            report.compare(
                "todod, 1 client, one at a time", one.perSecond, "/s", anchor: ("raw SQLite", sqliteResult.perSecond),
                goal: .atLeastTimes(0.7), figure: "durable `todo.add`, 1 client, one at a time")
            report.compare(
                "todod, 1 client, one at a time, against Redis -c 1", one.perSecond, "/s", anchor: ("Redis -c 1", redisRates[0]),
                goal: nil, figure: "durable `todo.add`, 1 client, one at a time (information)")
            report.compare(
                "todod, 1 client, 256 in flight", pipelined.perSecond, "/s", anchor: ("Redis -c 50", redisRates[2]),
                goal: .atLeastTimes(1), figure: "durable `todo.add`, 1 client, 256 in flight")
            report.compare(
                "todod, 1 client, 256 in flight, against Redis -P 256", pipelined.perSecond, "/s",
                anchor: ("Redis -c 1 -P 256", redisRates[1]), goal: nil,
                figure: "durable `todo.add`, 1 client, 256 in flight (information)")
            report.compare(
                "todod, 50 clients", fifty.perSecond, "/s", anchor: ("Redis -c 50", redisRates[2]), goal: .atLeastTimes(0.5),
                figure: "durable `todo.add`, 50 clients")
            report.compare(
                "todod CPU (user + system) per edit, 50 clients", fifty.cpuMicrosecondsPerEdit, "µs", anchor: nil,
                goal: .atMost(30), figure: "todod CPU per durable edit, 50 clients (aim)")
            report.note("(\(ReportLine.format(fifty.cpuSeconds * 1000)) ms of todod's CPU for \(fifty.count) edits)")
        }

        if parts.contains("fan-out"), let redis, let sqlite {
            report.section("fan-out: from the publishing write until each subscriber has read its message (in turns)")
            for (subscribers, rounds) in fanOutSizes {
                let todod = try ServerProcess.todod(in: scratch, arguments: ["--max-connections", "\(subscribers + 16)"])
                // One raw SQLite commit after each round: the commit time the
                // 100-subscriber bound adds, taken at the same moments.
                var commits = RawSQLite.Result()
                let results = try FanOut(subscribers: subscribers, rounds: rounds)
                    .run([TododFanOut(server: todod), RedisFanOut(server: redis)]) {
                        commits = commits + (try sqlite.run(for: .seconds(1), maximum: 1))
                    }
                todod.stop()
                let (tododResult, redisResult) = (results[0], results[1])
                let commit = commits.medianMicroseconds
                report.say("raw SQLite commit between the rounds: median", commit, "µs")
                report.say("Redis PUBLISH to \(subscribers): p50", redisResult.p50 / 1000, "ms")
                report.say("Redis PUBLISH to \(subscribers): p99", redisResult.p99 / 1000, "ms")
                report.compare(
                    "todod to \(subscribers) subscribers: p50", tododResult.p50 / 1000, "ms",
                    anchor: ("Redis p50", redisResult.p50 / 1000), goal: nil,
                    figure: "one edit to \(subscribers) subscribers, p50 (information)")
                if subscribers <= 100 {
                    report.compare(
                        "todod to \(subscribers) subscribers: p99", tododResult.p99 / 1000, "ms",
                        anchor: (
                            "Redis p99 \(Report.figure(redisResult.p99 / 1000, "ms")) + one SQLite commit \(Report.figure(commit / 1000, "ms")) =",
                            (redisResult.p99 + commit) / 1000),
                        goal: .atMostTimes(1.2),
                        figure: "one edit to \(subscribers) subscribers, p99")
                } else {
                    report.compare(
                        "todod to \(subscribers) subscribers: p99", tododResult.p99 / 1000, "ms",
                        anchor: ("Redis p99", redisResult.p99 / 1000), goal: .atMostTimes(1.2),
                        figure: "one edit to \(subscribers) subscribers, p99")
                }
                report.note(
                    "(\(rounds) rounds × \(subscribers) subscribers each; todod's event \(tododResult.messageBytes) bytes, "
                        + "Redis's message \(redisResult.messageBytes))")
            }
        }

        if parts.contains("startup") {
            let items = 100_000
            report.section("start to the first reply with 100,000 items on disk")
            let startup = try Startup(parent: scratch, items: items).run()
            report.note("filled through todod in \(ReportLine.format(startup.fillSeconds)) s; starts: "
                + startup.times.map { ReportLine.format($0 * 1000) + " ms" }.joined(separator: ", "))
            report.compare(
                "todod start to first server.status reply, median", startup.medianSeconds, "s", anchor: nil,
                goal: .atMost(0.3), figure: "start to first reply, 100,000 items on disk")
            report.compare(
                "todod resident memory then, largest", startup.largestResidentBytes / 1e6, "MB", anchor: nil,
                goal: .atMost(100), figure: "resident memory at first reply")
        }

        redis?.stop()
        report.finish(command: rerun)
    }

    static let roundTrips = 20_000
    static let roundTripTurn = 1000
    static let mutationRounds = 4

    /// Sends each connection's line and waits for the answer (one line),
    /// `roundTrips` times per connection after a warm-up, the connections
    /// taking turns of `roundTripTurn`; per connection, the median and p99 in
    /// microseconds.
    static func timeRoundTrips(_ contenders: [(LineSocket, [UInt8])]) throws -> [(median: Double, p99: Double)] {
        for (connection, line) in contenders {
            for _ in 0..<1000 {
                try connection.send(line)
                _ = try connection.readLine()
            }
        }
        var times = Array(repeating: [Double](), count: contenders.count)
        for _ in 0..<(roundTrips / roundTripTurn) {
            for (index, (connection, line)) in contenders.enumerated() {
                for _ in 0..<roundTripTurn {
                    let start = ContinuousClock.now
                    try connection.send(line)
                    _ = try connection.readLine()
                    times[index].append((ContinuousClock.now - start).microseconds)
                }
            }
        }
        return times.map { (percentile($0, 0.5), percentile($0, 0.99)) }
    }

    /// The file system type under `url`, as `/proc/self/mounts` names it.
    static func fileSystem(of url: URL) -> String {
        let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
        let path = url.resolvingSymlinksInPath().path
        var best: (mountPoint: String, description: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count > 2 else { continue }
            let mountPoint = fields[1]
            let contains = mountPoint == "/" || path == mountPoint || path.hasPrefix(mountPoint + "/")
            if contains, mountPoint.count >= (best?.mountPoint.count ?? 0) {
                best = (mountPoint, "\(fields[2]) on \(fields[0])")
            }
        }
        return best?.description ?? "unknown file system"
    }
}
