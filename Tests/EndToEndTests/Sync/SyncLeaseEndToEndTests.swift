import Foundation
import PostgresTestSupport
import Testing

/// A list shared through PostgreSQL syncs with its calendar server once,
/// not once per instance: `sync.lease` is granted to one instance at a
/// time, and when that instance dies another takes over.
@Suite(.serialized, .enabled(if: PostgresCluster.isInstalled || ProcessInfo.processInfo.environment["CI"] != nil))
final class SyncLeaseEndToEndTests {
    let cluster: PostgresCluster

    init() throws { cluster = try PostgresCluster() }
    deinit { cluster.destroy() }

    func instance(_ name: String, database: String) async throws -> DaemonProcess {
        let daemon = try DaemonProcess()
        daemon.arguments = ["--store", cluster.tcpURL(database: database), "--instance", name, "--init-store"]
        daemon.environment = ["PGPASSFILE": cluster.passwordFile]
        try await daemon.start()
        return daemon
    }

    func granted(_ daemon: DaemonProcess) async throws -> Bool {
        let reply = try await todoctl("call", "sync.lease", socket: daemon.socket)
        return reply.stdout.contains("\"granted\":true")
    }

    /// Until `condition` holds, asking again and again (the lease is taken
    /// by a task that retries every 2 s); false after 60 s.
    func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(200))
        }
        return false
    }

    @Test func oneInstanceAtATimeSyncsAndAnotherTakesOverWhenItDies() async throws {
        let database = try cluster.createDatabase("lease")
        let laptop = try await instance("laptop", database: database)
        let desktop = try await instance("desktop", database: database)
        // Both ask; one gets it, and only one.
        #expect(
            try await eventually {
                let laptopHolds = try await self.granted(laptop)
                let desktopHolds = try await self.granted(desktop)
                return laptopHolds || desktopHolds
            })
        let holders = [try await granted(laptop), try await granted(desktop)]
        #expect(holders.filter { $0 }.count == 1, "\(holders)")
        let (holder, other) = holders[0] ? (laptop, desktop) : (desktop, laptop)
        try await holder.kill()
        #expect(try await eventually { try await self.granted(other) })
        // A list of one instance (SQLite) is always its own to sync.
        let single = try DaemonProcess()
        try await single.start()
        #expect(try await granted(single))
    }
}
