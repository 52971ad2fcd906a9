import Foundation

/// Where the owner puts one connection's lines: an in-memory queue that
/// never blocks (todod's `ConnectionOutbox`), which the connection's
/// channel handler writes out. The owner does no I/O of its own.
public protocol ConnectionLines: AnyObject, Sendable {
    /// A reply or a notice: never dropped short of a goodbye.
    func send(_ line: Data)
    /// An event: dropped while the connection lags (a reset follows).
    func sendEvent(_ line: Data)
    /// A lagging connection caught up: these reset events, then events flow again.
    func resumeEvents(with lines: [Data])
    /// Nothing more: the connection closes after the lines queued.
    func finish()
}
