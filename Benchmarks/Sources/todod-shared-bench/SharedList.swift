import BenchmarkSupport
import Foundation
import PostgresTestSupport

/// One list in one database of the benchmark's cluster, and the todod
/// instances that share it: each the release todod of `TodoBinaries`,
/// started as `todod --store postgres://todod@127.0.0.1:PORT/DB?sslmode=disable
/// --instance NAME`, so it reaches PostgreSQL over loopback TCP with the
/// cluster's password, as instances on separate machines would (only the
/// network is shorter).
///
/// The password comes from the file `PGPASSFILE` names: the benchmark sets
/// that variable in its own environment (`usePasswordFile`) because
/// `ServerProcess` passes its environment on to the servers it starts.
struct SharedList {
    let cluster: PostgresCluster
    let database: String
    /// Where each instance's run directory (socket, data directory) goes.
    let parent: URL

    /// A fresh database, named `name`, for a fresh list.
    init(cluster: PostgresCluster, database name: String, parent: URL) throws {
        self.cluster = cluster
        database = try cluster.createDatabase(name)
        self.parent = parent
    }

    /// Starts instance `name` and waits until its socket accepts, which todod
    /// does only once it has connected, migrated and loaded the list.
    /// `dataDirectory`: one that outlives this process, for a restart.
    func start(_ name: String, dataDirectory: URL? = nil) throws -> ServerProcess {
        try ServerProcess.todod(
            in: parent, arguments: ["--store", cluster.tcpURL(database: database), "--instance", name, "--init-store"],
            dataDirectory: dataDirectory)
    }

    static func usePasswordFile(of cluster: PostgresCluster) {
        setenv("PGPASSFILE", cluster.passwordFile, 1)
    }
}
