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
    /// Lines for connections, one entry per connection that has any, in the
    /// order the connections were first given one in the turn.
    public var lines: [OutgoingLines] = []
    /// The earliest time the clock should tick next, if that changed.
    public var tick: Date?
    /// Something the status line counts changed (items, connections, subscriptions).
    public var statusChanged = false
    /// Shared list: the store became reachable (true) or not (false).
    public var reachabilityChanged: Bool?
}
