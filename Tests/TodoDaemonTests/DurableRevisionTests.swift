import Synchronization
import Testing
@testable import TodoDaemon

/// Replies wait on `DurableRevision` for the sync that covers their edit.
@Suite struct DurableRevisionTests {
    struct DiskRefused: Error {}

    final class Finished: Sendable {
        let revisions = Mutex<[Int]>([])
        var sorted: [Int] { revisions.withLock { $0.sorted() } }
    }

    @Test func aDurableRevisionNeedsNoWaiting() async throws {
        let durable = DurableRevision(5)
        try await durable.wait(for: 5)
        try await durable.wait(for: 1)
        #expect(durable.current == 5)
    }

    @Test func waitersGoOnOnlyWhenTheirRevisionIsCovered() async throws {
        let durable = DurableRevision(0)
        let finished = Finished()
        try await withThrowingTaskGroup { group in
            for revision in [1, 2, 3] {
                group.addTask {
                    try await durable.wait(for: revision)
                    finished.revisions.withLock { $0.append(revision) }
                }
            }
            // Every waiter is parked before the first advance.
            while durable.waiterCount < 3 { await Task.yield() }
            durable.advance(to: 2)
            try await group.next()
            try await group.next()
            #expect(finished.sorted == [1, 2])
            durable.advance(to: 3)
            try await group.waitForAll()
        }
        #expect(finished.sorted == [1, 2, 3])
        #expect(durable.current == 3)
    }

    @Test func aFailedSyncRefusesWaitersNowAndLater() async throws {
        let durable = DurableRevision(0)
        let waiter = Task { try await durable.wait(for: 1) }
        while durable.waiterCount < 1 { await Task.yield() }
        durable.fail(DiskRefused())
        await #expect(throws: DiskRefused.self) { try await waiter.value }
        await #expect(throws: DiskRefused.self) { try await durable.wait(for: 2) }
        // What was durable before the failure stays so.
        try await durable.wait(for: 0)
    }
}
