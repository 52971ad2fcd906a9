import Foundation
import PostgresNIO
import Synchronization
import Testing

@testable import TodoPostgres

/// Instances that start at the same moment on a new database, as machines
/// booting together would.
extension PostgresListStoreTests {
    /// Each round starts five stores at once on a database nobody has
    /// opened yet. All of them must open and read the same list, and the
    /// schema must have been made once: one list head with one epoch, one
    /// row per schema version. Without the migration lock around the whole
    /// of it, two sessions creating the same table at once collide in
    /// PostgreSQL's catalogue, and an instance fails to start.
    @Test func instancesStartedTogetherOnANewDatabaseAllServeAndTheSchemaIsMadeOnce() async throws {
        for round in 1...20 {
            let database = try cluster.createDatabase("together\(round)")
            let epochs = await Self.openAtOnce(count: 5, configuration(database))
            for case .failure(let error) in epochs {
                Issue.record("round \(round): an instance did not start: \(error)")
            }
            let opened = epochs.compactMap { try? $0.get() }
            #expect(Set(opened).count == 1, "round \(round): the instances read different lists: \(opened)")
            let session = try TestSession(configuration(database))
            #expect(try session.number("SELECT count(*) FROM list_head") == 1)
            #expect(
                try session.number("SELECT count(*) FROM todod_schema") == PostgresSchema.version,
                "round \(round): a schema version was applied more than once")
        }
    }

    /// Opens `count` stores on threads of their own, released together, and
    /// returns the epoch each one read (or why it could not open). Opening
    /// a store blocks its thread, as on todod's writer thread; the test
    /// awaits them instead of blocking one of the few threads every
    /// concurrent test shares, which would hold the others up meanwhile.
    static func openAtOnce(count: Int, _ configuration: PostgresConnection.Configuration) async -> [Result<String, any Error>] {
        let results = Mutex<[Result<String, any Error>]>([])
        let ready = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for index in 1...count {
            done.enter()
            Thread.detachNewThread {
                ready.signal()
                go.wait()
                let result = Result<String, any Error> {
                    let store = try PostgresListStore(
                        configuration: configuration, server: "test cluster", instance: "instance \(index)", timeout: 60, createsList: true)
                    defer { store.close() }
                    return try store.loadShared().epoch
                }
                results.withLock { $0.append(result) }
                done.leave()
            }
        }
        await withCheckedContinuation { (released: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                for _ in 1...count { ready.wait() }
                for _ in 1...count { go.signal() }
                released.resume()
            }
        }
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            done.notify(queue: .global()) { finished.resume() }
        }
        return results.withLock { $0 }
    }
}
