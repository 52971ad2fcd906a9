import Foundation

/// What one turn decided that the state cannot do itself, as swift-nio's and
/// postgres-nio's state machines hand back actions: lines to send, when the
/// clock should tick, whether the status line and the journal have news.
/// The shell takes them at the end of every turn (`OwnerState.endTurn`)
/// and carries them out; a test reads them.
///
/// What to store is not in here: the committer asks for it when it is idle
/// (`OwnerState.takeBatch`), which need not be at the end of a turn.
public struct TurnActions: Sendable {
    /// Lines for connections, in the order decided: each connection's in
    /// its order, interleaved as the turn went (an event to every
    /// subscriber, then a reply). One array for the whole turn, not one per
    /// connection: the shell hands each run of one connection's lines to
    /// its outbox at once.
    public var lines: [ConnectionLine] = []
    /// The earliest time the clock should tick next, if that changed.
    public var tick: Date?
    /// Something the status line counts changed (items, connections, subscriptions).
    public var statusChanged = false
    /// Shared list: the store became reachable (true) or not (false).
    public var reachabilityChanged: Bool?

    /// The connections given lines, in the order of their first.
    public var connections: [Int] {
        var seen = Set<Int>()
        return lines.compactMap { seen.insert($0.connection).inserted ? $0.connection : nil }
    }

    /// What `connection` is sent, in order.
    public func lines(for connection: Int) -> [OutgoingLine] {
        lines.filter { $0.connection == connection }.map(\.line)
    }
}
