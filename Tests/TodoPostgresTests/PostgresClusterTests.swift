import Foundation
import PostgresTestSupport
import Testing

/// The throwaway cluster the store and end-to-end tests stand on: durable
/// settings, a role that gets in with its password file and not without,
/// data that survives a restart, and nothing left behind.
///
/// Without PostgreSQL installed these are skipped, except under CI, where
/// they fail with PostgresCluster's error saying what to install.
@Suite(.enabled(if: PostgresCluster.isInstalled || ProcessInfo.processInfo.environment["CI"] != nil))
struct PostgresClusterTests {
    @Test func keepsPostgreSQLsDurableDefaults() throws {
        let cluster = try PostgresCluster()
        defer { cluster.destroy() }
        #expect(try cluster.psql("SHOW fsync") == "on\n")
        #expect(try cluster.psql("SHOW synchronous_commit") == "on\n")
        #expect(try cluster.psql("SHOW listen_addresses") == "127.0.0.1\n")
        #expect(try cluster.psql("SHOW port") == "\(cluster.port)\n")
    }

    @Test func createdDatabaseBelongsToTheRole() throws {
        let cluster = try PostgresCluster()
        defer { cluster.destroy() }
        let database = try cluster.createDatabase("items")
        #expect(database == "items")
        let owner = try cluster.psql("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'items'")
        #expect(owner == "todod\n")
    }

    @Test func roleGetsInWithThePasswordFileOverTCPAndTheSocket() throws {
        let cluster = try PostgresCluster()
        defer { cluster.destroy() }
        let database = try cluster.createDatabase("items")
        let withPasswordFile = ["PGPASSFILE": cluster.passwordFile]
        for host in ["127.0.0.1", cluster.socketDirectory] {
            let output = try cluster.runPSQL(
                ["-h", host, "-p", "\(cluster.port)", "-U", cluster.user, "-d", database, "-At", "-c", "SELECT current_user"],
                environment: withPasswordFile)
            #expect(output.succeeded, "as \(cluster.user) on \(host): \(output.stderr)")
            #expect(output.stdout == "todod\n")
        }
        // libpq reads the URLs as todod is given them.
        for url in [cluster.tcpURL(database: database), cluster.socketURL(database: database)] {
            let output = try cluster.runPSQL(["-d", url, "-At", "-c", "SELECT current_user"], environment: withPasswordFile)
            #expect(output.succeeded, "\(url): \(output.stderr)")
            #expect(output.stdout == "todod\n")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: cluster.passwordFile)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func roleIsRefusedWithoutThePassword() throws {
        let cluster = try PostgresCluster()
        defer { cluster.destroy() }
        let database = try cluster.createDatabase("items")
        let noPasswordFile = ["PGPASSFILE": cluster.directory + "/no-such-file"]
        // The socket too: the role's line in pg_hba.conf comes before the superuser's trust.
        for host in ["127.0.0.1", cluster.socketDirectory] {
            let output = try cluster.runPSQL(
                ["-h", host, "-p", "\(cluster.port)", "-U", cluster.user, "-d", database, "-c", "SELECT 1"],
                environment: noPasswordFile)
            #expect(!output.succeeded, "as \(cluster.user) on \(host) without a password")
            #expect(output.stderr.contains("no password supplied"), "\(output.stderr)")
        }
    }

    @Test func dataSurvivesARestart() throws {
        let cluster = try PostgresCluster()
        defer { cluster.destroy() }
        let database = try cluster.createDatabase("items")
        try cluster.psql("CREATE TABLE kept (title text); INSERT INTO kept VALUES ('milk')", database: database)
        try cluster.restart()
        #expect(try cluster.psql("SELECT title FROM kept", database: database) == "milk\n")
        try cluster.stop(mode: "immediate")
        try cluster.start()
        #expect(try cluster.psql("SELECT title FROM kept", database: database) == "milk\n")
    }

    @Test func failedSQLThrowsWhatPostgreSQLSaid() throws {
        let cluster = try PostgresCluster()
        defer { cluster.destroy() }
        let error = #expect(throws: PostgresClusterError.self) {
            try cluster.psql("SELECT * FROM no_such_table")
        }
        #expect(error?.description.contains("relation \"no_such_table\" does not exist") == true)
    }

    @Test func destroyLeavesNoServerAndNoFolder() throws {
        let cluster = try PostgresCluster()
        let postmasterPID = try #require(Self.postmasterPID(dataDirectory: cluster.dataDirectory))
        #expect(Self.isRunning(postmasterPID))
        cluster.destroy()
        cluster.destroy()
        #expect(!FileManager.default.fileExists(atPath: cluster.directory))
        #expect(!Self.isRunning(postmasterPID))
        #expect(Self.processes(naming: cluster.dataDirectory).isEmpty)
    }

    private static func postmasterPID(dataDirectory: String) -> pid_t? {
        let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8)
        return text?.split(separator: "\n").first.flatMap { pid_t($0) }
    }

    /// Running, as opposed to gone or a zombie nobody reaped (as in a container).
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards)
        else { return false }
        return stat[afterName.upperBound...].first != "Z"
    }

    /// The processes whose command line contains `text`.
    private static func processes(naming text: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { entry in
            guard Int(entry) != nil, let commandLine = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { return false }
            return String(decoding: commandLine, as: UTF8.self).contains(text)
        }
    }
}
