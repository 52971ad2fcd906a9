import Foundation
import NIOCore
import TodoOwner

/// Connections as the channel handlers hand them over: each call is a turn
/// on the owner's loop.
extension ListOwner {
    /// Registers a connection and queues its greeting, the first line it gets.
    /// Through the inbox, as lines are: a turn already scheduled when the
    /// connection's first lines arrive registers it before reading them.
    func connect(_ outbox: ConnectionOutbox, greeting: @escaping @Sendable (_ epoch: String, _ revision: Int) -> Data) {
        submit(NewConnection(outbox: outbox, greeting: greeting))
    }

    /// Drops a connection that has gone: its subscriptions and own views.
    func disconnect(_ connection: Int) {
        loop.execute {
            self.outboxes.value[connection] = nil
            self.state.withValue { $0.disconnect(connection) }
            self.finishTurn()
        }
    }

    /// Ends a connection once every reply it is owed is out: `lastLine` (a
    /// shutdown notice, an error) follows them, and the connection closes.
    func end(_ connection: Int, lastLine: Data?) {
        onLoop { $0.end(connection, lastLine: lastLine) }
    }

    /// A lagging connection has read everything queued: sends each of its
    /// subscriptions its whole current state as one reset event, and lets
    /// events flow again.
    func resync(connection: Int) {
        onLoop { $0.resync(connection: connection) }
    }

    /// Changes the state in a turn of its own, without waiting for it.
    func onLoop(_ body: @escaping @Sendable (inout OwnerState) -> Void) {
        loop.execute {
            self.state.withValue(body)
            self.finishTurn()
        }
    }

    // MARK: Counts

    public var itemCount: Int { get async { await turn { $0.itemCount } } }
    public var subscriptionCount: Int { get async { await turn { $0.subscriptionCount } } }

    /// What the status line counts, read in one turn; nil once `shutdown()`
    /// has begun, when there is nothing left to count.
    public func statusCounts() async -> (items: Int, clients: Int, subscriptions: Int, stale: Bool, notices: Int)? {
        let counted = isShutDown.withLock { isShutDown in
            isShutDown
                ? nil
                : loop.submit {
                    self.state.withValue { ($0.itemCount, $0.connectionCount, $0.subscriptionCount, !$0.storeReachable, $0.notices.count) }
                }
        }
        guard let counts = try? await counted?.get() else { return nil }
        return (items: counts.0, clients: counts.1, subscriptions: counts.2, stale: counts.3, notices: counts.4)
    }
}
