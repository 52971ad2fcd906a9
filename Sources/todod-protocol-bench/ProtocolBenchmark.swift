import BenchmarkSupport
import Foundation

/// `todod-protocol-bench`: todod over its socket, against the floor, in one run.
///
/// Run it with `scripts/bench protocol` (which builds todod and this in
/// release mode), or after a release build: `.build/release/todod-protocol-bench
/// [--data-parent DIR] [round-trip] [mutations] [fan-out]` (all parts
/// unless some are named; the floor is always measured). Each part starts a fresh todod (the release build next
/// to this executable) with its data in a new directory under `DIR` (default:
/// the system's temporary directory; the disk it is on decides the cost of a
/// sync), and talks to it over a real Unix socket with plain blocking sockets:
///
/// 1. the floor: a line as long as todod's request, echoed back by a minimal
///    server process (`EchoServer`);
/// 2. todod's round trip: `server.status` on one persistent connection;
/// 3. durable mutations per second (`todo.add`; each reply comes only after the
///    edit is committed and the write-ahead log synced): one client waiting for
///    each reply, one client keeping 256 requests in flight, and 50 clients;
/// 4. fan-out: the time from sending one edit until each of 100, then 1,000,
///    subscribers has its `view.changed` line.
@main
struct ProtocolBenchmark {
    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--echo-server", arguments.count == 2 {
            try EchoServer.run(path: arguments[1])
        }
        var parent = FileManager.default.temporaryDirectory
        if let flag = arguments.firstIndex(of: "--data-parent"), flag + 1 < arguments.count {
            parent = URL(fileURLWithPath: arguments[flag + 1])
            arguments.removeSubrange(flag...(flag + 1))
        }
        let parts = Set(arguments)
        guard parts.isSubset(of: ["round-trip", "mutations", "fan-out"]) else {
            FileHandle.standardError.write(
                Data(
                    "usage: todod-protocol-bench [--data-parent DIR] [round-trip] [mutations] [fan-out]\n"
                        .utf8))
            exit(64)
        }
        func runs(_ part: String) -> Bool { parts.isEmpty || parts.contains(part) }
        let scratch = parent.appendingPathComponent("todod-protocol-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        print(
            "todod-protocol-bench: release build expected; data under \(scratch.path) (\(fileSystem(of: scratch)))\n"
        )
        var report: [ReportLine] = []
        func say(_ line: ReportLine) {
            print(line)
            report.append(line)
        }

        let statusRequest =
            Array(#"{"jsonrpc":"2.0","id":1,"method":"server.status"}"#.utf8) + [UInt8(ascii: "\n")]
        print("== round trip, one client, one persistent connection (\(roundTrips) round trips)")
        let echo = try ServerProcess.echo(in: scratch)
        let floor = try timeRoundTrips(try echo.connect(greeting: false), line: statusRequest)
        echo.stop()
        say(ReportLine("floor: echo of a \(statusRequest.count)-byte line: median", floor.median, "µs"))
        say(ReportLine("floor: p99", floor.p99, "µs"))

        if runs("round-trip") {
            let todod = try ServerProcess.todod(in: scratch)
            let roundTrip = try timeRoundTrips(try todod.connect(), line: statusRequest)
            say(
                ReportLine(
                    "todod server.status: median", roundTrip.median, "µs",
                    target: .atMost(3 * floor.median), comment: ratio(roundTrip.median, floor.median)))
            say(
                ReportLine(
                    "todod server.status: p99", roundTrip.p99, "µs",
                    target: .atMost(3 * floor.p99), comment: ratio(roundTrip.p99, floor.p99)))
            todod.stop()
        }

        if runs("mutations") {
            print("\n== durable mutations (todo.add; replied after commit and sync)")
            for (label, clients, window, target) in [
                ("1 client, one request at a time", 1, 1, nil),
                ("1 client, 256 requests in flight", 1, 256, ReportLine.Target.atLeast(20_000)),
                ("50 clients, one request at a time each", 50, 1, nil),
            ] as [(String, Int, Int, ReportLine.Target?)] {
                let todod = try ServerProcess.todod(in: scratch)
                let rate = try MutationLoad(server: todod, clients: clients, window: window).run()
                todod.stop()
                say(
                    ReportLine(
                        label, rate.perSecond, "/s", target: target,
                        comment: "(\(rate.count) in \(ReportLine.format(rate.seconds * 1000)) ms)"))
            }
        }

        if runs("fan-out") {
            print("\n== fan-out: one edit until each subscriber has its event")
            for (subscribers, edits, bound) in [(100, 200, 2.0), (1000, 40, 20.0)] {
                let todod = try ServerProcess.todod(
                    in: scratch, arguments: ["--max-connections", "\(subscribers + 16)"])
                let latencies = try FanOut(server: todod, subscribers: subscribers).run(edits: edits)
                todod.stop()
                say(
                    ReportLine(
                        "\(subscribers) subscribers: p50", percentile(latencies, 0.5) / 1000, "ms",
                        comment: ratio(percentile(latencies, 0.5), floor.median)))
                say(
                    ReportLine(
                        "\(subscribers) subscribers: p99", percentile(latencies, 0.99) / 1000, "ms",
                        target: .atMost(bound), comment: "(\(edits) edits × \(subscribers))"))
            }
        }

        let missed = report.filter { !$0.isMet }
        print(
            missed.isEmpty
                ? "\nevery target met"
                : "\n\(missed.count) target(s) missed:\n"
                    + missed.map(\.description).joined(separator: "\n"))
    }

    static let roundTrips = 20_000

    /// Sends `line` and waits for the answer, `roundTrips` times after a warm-up;
    /// the median and p99 in microseconds.
    static func timeRoundTrips(_ connection: LineSocket, line: [UInt8]) throws -> (
        median: Double, p99: Double
    ) {
        for _ in 0..<1000 {
            try connection.send(line)
            _ = try connection.readLine()
        }
        var times: [Double] = []
        times.reserveCapacity(roundTrips)
        for _ in 0..<roundTrips {
            let start = ContinuousClock.now
            try connection.send(line)
            _ = try connection.readLine()
            times.append((ContinuousClock.now - start).microseconds)
        }
        return (percentile(times, 0.5), percentile(times, 0.99))
    }

    static func ratio(_ value: Double, _ floor: Double) -> String {
        String(format: "(%.1f× the floor)", value / floor)
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
