import Foundation
import TestSupport

/// What an administrator does to a database under running instances:
/// back it up, drop it, make it again and restore the backup.
extension PostgresCluster {
    /// Runs one of the cluster's own programs (pg_dump, pg_restore, dropdb,
    /// createdb) as the superuser over the socket; throws if it fails.
    @discardableResult
    public func administer(_ program: String, _ arguments: [String]) throws -> ProgramOutput {
        let ran = try ProgramRun.run(
            "\(binDirectory)/\(program)", ["-h", socketDirectory, "-p", "\(port)", "-U", superuser] + arguments,
            environment: ProgramEnvironment.forPostgres)
        guard ran.succeeded else { throw PostgresClusterError("\(program) \(arguments.joined(separator: " ")) failed: \(ran.stderr)") }
        return ran
    }

    /// A backup of `database` in pg_dump's custom format, written to `file`.
    public func dump(_ database: String, to file: String) throws {
        try administer("pg_dump", ["-Fc", "-f", file, database])
    }

    /// Drops `database` (ending its sessions), makes it again for the role
    /// and restores `file` into it: the database goes back to the backup.
    public func restore(_ database: String, from file: String) throws {
        try administer("dropdb", ["--force", database])
        try administer("createdb", ["-O", user, database])
        try administer("pg_restore", ["-d", database, file])
    }
}
