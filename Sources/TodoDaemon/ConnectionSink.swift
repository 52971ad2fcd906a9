import Foundation

/// Where the host puts lines for one connection. `send` is for replies and
/// notices, which are never dropped; `sendEvent` is for subscription events,
/// which a lagging connection drops (it gets a reset later instead).
/// Neither blocks: the host never waits for a client.
public protocol ConnectionSink: AnyObject, Sendable {
    var connectionID: Int { get }
    func send(_ line: Data)
    func sendEvent(_ line: Data)
    /// Ends lagging: queues `lines` (one reset event per subscription) and
    /// accepts events again, in one step.
    func resumeEvents(with lines: [Data])
}
