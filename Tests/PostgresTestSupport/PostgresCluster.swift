import Foundation
import TestSupport

/// A throwaway PostgreSQL cluster of its own, for one test: initdb in a fresh
/// folder under /tmp, a server on a free port of 127.0.0.1 and on a socket in
/// that folder, and a login role whose password is in a password file, so that
/// the tests connect as todod will: as a role with a password, over TCP or the
/// socket.
///
/// The server keeps PostgreSQL's durable defaults (fsync, synchronous_commit):
/// see `ClusterConfiguration`. Stop it with `destroy()`, or let it go: `deinit`
/// destroys it too. A test process that crashes leaves it running.
public final class PostgresCluster: @unchecked Sendable {
    /// The cluster's folder: the data directory, the socket directory, the log
    /// and the password file are inside.
    public let directory: String
    /// initdb's data directory (PGDATA), for tests that inspect or damage its files.
    public let dataDirectory: String
    /// The server's `unix_socket_directories`.
    public let socketDirectory: String
    /// The server's log (pg_ctl -l): the tail of it comes with every error.
    public let logFile: String
    /// The server's TCP port, on 127.0.0.1 only; the socket has the same number.
    public let port: Int
    /// The login role the tests connect as. It has a password, on the socket as
    /// over TCP; it owns the databases `createDatabase` makes, and nothing else.
    public let user: String
    /// The role's password: random for each cluster.
    public let password: String
    /// A libpq password file (mode 0600) with the role's password for the socket
    /// directory, 127.0.0.1 and localhost, at this port, for any database: give
    /// it to clients as PGPASSFILE, or `passfile=` in a URL.
    public let passwordFile: String
    /// The superuser: `postgres` when the tests run as root, else the user running them.
    public let superuser: String
    /// The folder of the server's programs (pgbench, pg_dump and psql are there too).
    public let binDirectory: String

    private static let role = "todod"
    private let server: ServerControl
    private let lock = NSLock()
    private var destroyed = false

    /// Whether PostgreSQL's server programs are installed, for tests that skip without them.
    public static var isInstalled: Bool { PostgresBinaries.find() != nil }

    /// Makes the cluster and starts it. `name` begins the folder's name.
    ///
    /// Throws if PostgreSQL is not installed, and with the end of the server's
    /// log if it does not start.
    public init(name: String = "todod-test") throws {
        guard let binaries = PostgresBinaries.find() else {
            throw PostgresClusterError(
                "PostgreSQL's server is not installed: no /usr/lib/postgresql/*/bin/initdb, and no pg_config"
                    + " naming one; on Debian: apt-get install postgresql")
        }
        let account = try ServerAccount.forThisProcess()
        let directory = try Self.makeDirectory(name: name)
        let server = ServerControl(
            binaries: binaries, account: account, directory: directory,
            dataDirectory: "\(directory)/data", socketDirectory: "\(directory)/socket",
            logFile: "\(directory)/server.log")
        let user = Self.role
        let password = Self.randomPassword()
        let port: Int
        let passwordFile = "\(directory)/pgpass"
        do {
            try account.hand(directory)
            try FileManager.default.createDirectory(
                atPath: server.socketDirectory, withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o755])
            try account.hand(server.socketDirectory)
            try server.initialize()
            let clientAuthentication = "\(server.dataDirectory)/pg_hba.conf"
            try ClusterConfiguration.clientAuthentication(role: user)
                .write(toFile: clientAuthentication, atomically: false, encoding: .utf8)
            try account.hand(clientAuthentication)
            port = try Self.startOnFreePort(server)
            _ = try server.psql(
                "CREATE ROLE \(Self.identifier(user)) LOGIN PASSWORD '\(password)'", database: "postgres", port: port)
            try PasswordFile.write(
                [server.socketDirectory, "127.0.0.1", "localhost"].map {
                    PasswordFile.line(host: $0, port: port, user: user, password: password)
                },
                to: passwordFile)
        } catch {
            server.stopForGood()
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        self.directory = directory
        self.dataDirectory = server.dataDirectory
        self.socketDirectory = server.socketDirectory
        self.logFile = server.logFile
        self.port = port
        self.user = user
        self.password = password
        self.passwordFile = passwordFile
        self.superuser = account.superuser
        self.binDirectory = binaries.directory
        self.server = server
    }

    deinit {
        destroy()
    }

    /// Creates a database owned by the role, and returns its name.
    @discardableResult
    public func createDatabase(_ name: String) throws -> String {
        _ = try psql("CREATE DATABASE \(Self.identifier(name)) OWNER \(Self.identifier(user))")
        return name
    }

    /// Stops the server: `mode` is pg_ctl's (smart, fast or immediate). Waits until it is gone.
    public func stop(mode: String = "fast") throws {
        try server.stop(mode: mode)
    }

    /// Starts the server again, on the same port with the same data, and waits
    /// until it accepts connections (at most 60 s).
    public func start() throws {
        try server.start()
    }

    /// A fast stop, then a start.
    public func restart() throws {
        try stop()
        try start()
    }

    /// Runs `sql` through psql as the superuser over the socket, and returns what
    /// psql printed: rows only, unaligned, `|` between columns, each row ending in
    /// a newline (so `SHOW fsync` gives "on\n"). Statements run one by one; the
    /// first error is thrown.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try server.psql(sql, database: database, port: port)
    }

    /// Runs this cluster's psql with `arguments` as a client would: as the user
    /// running the tests, with `environment` added to an environment without
    /// PG… variables, and never prompting for a password (-w, added here), so
    /// that a missing one fails at once. Returns whatever happened; for tests of
    /// how the role gets in, e.g.
    /// `runPSQL(["-h", socketDirectory, "-p", "\(port)", "-U", user, "-d", db, "-c", "SELECT 1"],
    ///  environment: ["PGPASSFILE": passwordFile])`.
    public func runPSQL(_ arguments: [String], environment: [String: String] = [:]) throws -> ProgramOutput {
        try ProgramRun.run(
            "\(binDirectory)/psql", ["--no-psqlrc", "--no-password"] + arguments,
            environment: ProgramEnvironment.forPostgres.merging(environment) { $1 })
    }

    /// Stops the server for good and deletes the folder. Never throws, and does
    /// nothing the second time.
    public func destroy() {
        lock.lock()
        let alreadyDone = destroyed
        destroyed = true
        lock.unlock()
        guard !alreadyDone else { return }
        server.stopForGood()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Tries ports until one is free when the server binds it: another process
    /// may take the one picked before the server does.
    private static func startOnFreePort(_ server: ServerControl) throws -> Int {
        let configuration = "\(server.dataDirectory)/postgresql.conf"
        let initdbSettings = try String(contentsOfFile: configuration, encoding: .utf8)
        let attempts = 5
        for attempt in 1...attempts {
            let port = try FreePort.pick()
            try (initdbSettings + ClusterConfiguration.settings(port: port, socketDirectory: server.socketDirectory))
                .write(toFile: configuration, atomically: false, encoding: .utf8)
            try server.account.hand(configuration)
            let logStart = server.logSize
            do {
                try server.start()
                return port
            } catch where attempt < attempts && server.log(since: logStart).contains("Address already in use") {
                continue
            }
        }
        preconditionFailure("the last attempt returns or throws")
    }

    /// A new folder /tmp/NAME-XXXXXX, mode 0755.
    ///
    /// Under /tmp whatever TMPDIR says: when the tests run as root the server
    /// runs as `postgres`, which must reach it; and a socket's path must stay
    /// under 108 bytes. Mode 0755 so that clients running as the test's user
    /// reach the socket directory and read the log.
    private static func makeDirectory(name: String) throws -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        let safeName = String(name.map { allowed.contains($0) ? $0 : "-" }.prefix(32))
        var template = Array("/tmp/\(safeName)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw PostgresClusterError("cannot make a folder in /tmp: \(String(cString: strerror(errno)))")
        }
        let path = String(cString: made)
        chmod(path, 0o755)
        return path
    }

    /// 32 hex digits: nothing to quote in SQL, a URL or the password file.
    private static func randomPassword() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    /// A name as an SQL identifier in double quotes, whatever it contains.
    private static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
