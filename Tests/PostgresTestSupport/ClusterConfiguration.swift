/// The settings and the client authentication a test cluster runs with.
enum ClusterConfiguration {
    /// Appended to the postgresql.conf initdb writes (the last setting of a name wins).
    ///
    /// fsync and synchronous_commit are PostgreSQL's defaults and are spelled
    /// out so that nobody "speeds the tests up" by turning them off: todod
    /// promises durability, and the benchmarks compare it with pgbench on this
    /// very cluster. Only initdb skips its final sync (--no-sync): a cluster
    /// lost in a crash of the machine is simply made again.
    static func settings(port: Int, socketDirectory: String) -> String {
        """

        # The test cluster's own settings (PostgresTestSupport).
        listen_addresses = '127.0.0.1'
        port = \(port)
        unix_socket_directories = '\(quoted(socketDirectory))'
        max_connections = 100
        ssl = off
        fsync = on
        synchronous_commit = on
        logging_collector = off

        """
    }

    /// pg_hba.conf, replacing initdb's: `role` must give its password on the
    /// socket as over TCP, since the tests are about how todod gets in with a
    /// password file; everyone else (the superuser that sets up and inspects)
    /// is trusted on the socket. The first matching line wins, so the role's
    /// line comes first.
    static func clientAuthentication(role: String) -> String {
        """
        # TYPE  DATABASE  USER  ADDRESS       METHOD
        local   all       \(role)                scram-sha-256
        local   all       all                  trust
        host    all       all   127.0.0.1/32  scram-sha-256

        """
    }

    /// A value inside single quotes in postgresql.conf.
    private static func quoted(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''")
    }
}
