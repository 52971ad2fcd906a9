import BenchmarkSupport
import Foundation
import Glibc
import PostgresTestSupport

/// PostgreSQL's own `pgbench` as the anchor, on the same cluster as todod's
/// list and over the same loopback TCP, as the same login role with the same
/// password file: the built-in `simple-update` script (`-b simple-update`:
/// BEGIN; UPDATE pgbench_accounts; SELECT; INSERT INTO pgbench_history;
/// END), a durable write transaction per client round trip, on a
/// `pgbench -i -s 1` database (100,000 accounts). Its clients are closed
/// loops like todod's: each sends its next transaction when the last one
/// has committed.
struct Pgbench {
    let cluster: PostgresCluster
    let database: String
    /// Where pgbench's output and transaction logs go.
    let directory: URL

    struct Rate {
        var transactions = 0
        var seconds = 0.0
        var perSecond: Double { Double(transactions) / seconds }

        static func + (a: Rate, b: Rate) -> Rate {
            Rate(transactions: a.transactions + b.transactions, seconds: a.seconds + b.seconds)
        }
    }

    /// Creates the database and fills it (`pgbench -i -s 1`).
    init(cluster: PostgresCluster, database name: String, directory: URL) throws {
        self.cluster = cluster
        database = try cluster.createDatabase(name)
        self.directory = directory
        _ = try run(["-i", "-s", "1", "-q"])
    }

    var version: String {
        (try? run(["--version"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? "pgbench"
    }

    /// `pgbench -n -b simple-update -c CLIENTS -j CLIENTS -T SECONDS`: the
    /// transactions it ran and the time they took (transactions ÷ its `tps`,
    /// which leaves out the connections' set-up, as todod's figures do).
    ///
    /// Once, on a swamped machine (load 7 on 2 cores), `-c 8 -T 2` ran no
    /// transaction at all and printed no `tps`: its clock runs while its
    /// clients connect (a backend and a SCRAM exchange each). Such a run is
    /// run again, at most twice, and says so on standard error.
    func run(clients: Int, seconds: Int) throws -> Rate {
        let arguments = ["-n", "-b", "simple-update", "-c", "\(clients)", "-j", "\(clients)", "-T", "\(seconds)"]
        for attempt in 1...3 {
            var errors = ""
            let output = try run(arguments, errors: &errors)
            do {
                if let rate = try Self.rate(in: output) { return rate }
            } catch {
                throw BenchmarkError.failed("pgbench \(arguments.joined(separator: " ")): \(error)\n\(errors)")
            }
            FileHandle.standardError.write(
                Data("bench: pgbench -c \(clients) ran no transaction in \(seconds) s (attempt \(attempt)); running it again\n".utf8))
        }
        throw BenchmarkError.failed("pgbench -c \(clients) ran no transaction in three runs of \(seconds) s")
    }

    /// The same with one client, logging every transaction (`-l`): the time
    /// of each, in milliseconds, from BEGIN sent to END's reply read.
    func transactionTimes(seconds: Int) throws -> [Double] {
        let prefix = directory.appendingPathComponent("pgbench-log-\(UUID().uuidString.prefix(8))").path
        _ = try run(["-n", "-b", "simple-update", "-c", "1", "-j", "1", "-T", "\(seconds)", "-l", "--log-prefix=\(prefix)"])
        let name = URL(fileURLWithPath: prefix).lastPathComponent
        var times: [Double] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) where file.hasPrefix(name + ".") {
            let path = directory.appendingPathComponent(file).path
            defer { unlink(path) }
            // client_id transaction_no time_us script_no epoch epoch_us
            for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count >= 3, let microseconds = Double(fields[2]) else {
                    throw BenchmarkError.failed("unexpected pgbench log line: \(line)")
                }
                times.append(microseconds / 1000)
            }
        }
        guard !times.isEmpty else { throw BenchmarkError.failed("pgbench logged no transactions under \(prefix)") }
        return times
    }

    /// "number of transactions actually processed: 1234" and "tps = 617.1
    /// (without initial connection time)"; nil when there were none.
    static func rate(in output: String) throws -> Rate? {
        var transactions: Int?
        var tps: Double?
        var failed = 0
        for line in output.split(separator: "\n") {
            if line.hasPrefix("number of transactions actually processed:") {
                transactions = line.split(separator: ":").last.flatMap { Int($0.split(separator: "/").first!.trimmingCharacters(in: .whitespaces)) }
            } else if line.hasPrefix("number of failed transactions:") {
                failed = line.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces).split(separator: " ").first!) } ?? 0
            } else if line.hasPrefix("tps = ") {
                tps = Double(line.dropFirst(6).split(separator: " ").first ?? "")
            }
        }
        if transactions == 0 { return nil }
        guard let transactions, let tps, tps > 0 else { throw BenchmarkError.failed("unexpected pgbench output:\n\(output)") }
        guard failed == 0 else { throw BenchmarkError.failed("pgbench had \(failed) failed transactions:\n\(output)") }
        return Rate(transactions: transactions, seconds: Double(transactions) / tps)
    }

    /// Runs this cluster's pgbench against `database` over TCP as the role,
    /// without PG… variables from the caller's environment but the password
    /// file, and returns its standard output (standard error in a failure).
    private func run(_ arguments: [String]) throws -> String {
        var errors = ""
        return try run(arguments, errors: &errors)
    }

    /// The same, with what pgbench wrote on standard error in `errors`.
    private func run(_ arguments: [String], errors errorText: inout String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cluster.binDirectory).appendingPathComponent("pgbench")
        let connection = ["-h", "127.0.0.1", "-p", "\(cluster.port)", "-U", cluster.user]
        process.arguments = arguments == ["--version"] ? arguments : arguments + connection + [database]
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PG") }
        environment["PGPASSFILE"] = cluster.passwordFile
        environment["LC_ALL"] = "C"
        process.environment = environment
        process.currentDirectoryURL = directory
        let errors = directory.appendingPathComponent("pgbench-stderr-\(UUID().uuidString.prefix(8)).txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        // Its standard output is a few lines; it ends when pgbench does (-T, or -i's end).
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        errorText = stderr
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw BenchmarkError.failed(
                "pgbench \(process.arguments!.joined(separator: " ")) failed (status \(process.terminationStatus)):\n\(text)\(stderr)")
        }
        return text
    }
}
