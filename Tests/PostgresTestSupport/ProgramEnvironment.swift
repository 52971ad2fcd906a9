import Foundation

/// The environment the cluster's programs run with.
enum ProgramEnvironment {
    /// This process's environment without libpq's and the server's PG… variables
    /// (PGDATA, PGHOST, PGPORT, PGUSER, PGPASSFILE, PGOPTIONS, …): a developer's
    /// own settings must not point the tests' commands at another server or
    /// change how they connect. Messages in English (LC_ALL=C), so that a log
    /// tail reads the same everywhere; psql gives up on a connection after 10 s
    /// rather than hanging a test.
    static var forPostgres: [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PG") }
        environment["LC_ALL"] = "C"
        environment["PGCONNECT_TIMEOUT"] = "10"
        return environment
    }
}
