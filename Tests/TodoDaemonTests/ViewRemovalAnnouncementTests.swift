import Foundation
import Testing
import TodoProtocol
@testable import TodoDaemon

/// `view.removed` is an announcement like `view.changed`: it may go out only
/// once the removal is durable. A removal the store refuses is taken back
/// (the view is there again), so its watchers must not have been told it
/// is gone, nor lost their subscriptions.
@Suite struct ViewRemovalAnnouncementTests {
    @Test func aRemovalThatIsNotStoredIsNotAnnouncedAndEndsNothing() async throws {
        let store = try FailedWriteTests.FailingStore()
        let owner = try ListOwner(store: store)
        let client = OwnerClient(owner: owner)
        let watcher = OwnerClient(id: 2, owner: owner)
        _ = await client.send(#"{"jsonrpc":"2.0","id":1,"method":"view.save","params":{"name":"home","query":"+home"}}"#)
        guard case .response = await watcher.send(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe","params":{"view":"home"}}"#)
        else { Issue.record("no subscription"); return }

        store.failing.store(true, ordering: .relaxed)
        let refused = await client.error(#"{"jsonrpc":"2.0","id":2,"method":"view.remove","params":{"name":"home"}}"#)
        #expect(refused?.name == "store.writeFailed")
        #expect(watcher.events.isEmpty, "announced a removal that was not stored: \(watcher.events)")
        #expect(await owner.subscriptionCount == 1)

        // The view and its subscription go on as before.
        store.failing.store(false, ordering: .relaxed)
        _ = await client.send(#"{"jsonrpc":"2.0","id":3,"method":"todo.add","params":{"text":"paint +home"}}"#)
        #expect(watcher.events.count == 1)
        #expect(watcher.events.first?.contains(#""method":"view.changed""#) == true)

        // Stored, the removal is announced, after the events before it, and ends the subscription.
        guard case .response = await client.send(#"{"jsonrpc":"2.0","id":4,"method":"view.remove","params":{"name":"home"}}"#)
        else { Issue.record("the removal failed"); return }
        #expect(watcher.events.count == 2)
        #expect(watcher.events.last?.contains(#""method":"view.removed""#) == true)
        #expect(await owner.subscriptionCount == 0)
        _ = await client.send(#"{"jsonrpc":"2.0","id":5,"method":"todo.add","params":{"text":"rake +home"}}"#)
        #expect(watcher.events.count == 2)
    }
}
