import Foundation

/// A line the owner decided a connection is to be sent. The owner does no
/// I/O: a turn's lines come out of it in order (`TurnActions.lines`), and
/// its shell hands them to each connection's outbox (todod's
/// `ConnectionOutbox`), which writes them out.
public enum OutgoingLine: Sendable, Equatable {
    /// A reply or a notice: never dropped short of a goodbye.
    case message(Data)
    /// An event: dropped while the connection lags (a reset follows).
    case event(Data)
    /// A lagging connection caught up: these reset events, then events flow again.
    case resumeEvents([Data])
    /// Nothing more: the connection closes after the lines before this.
    case finish
}

/// A line and the connection it is for.
public struct ConnectionLine: Sendable, Equatable {
    public let connection: Int
    public let line: OutgoingLine

    public init(connection: Int, line: OutgoingLine) {
        self.connection = connection
        self.line = line
    }
}
