import NIOCore

extension Channel {
    /// Closes a connection after its last line so that the client reads it:
    /// the output is shut first (the client sees the end of the stream right
    /// after the last line), and the socket is closed once the client closes
    /// too (the handlers see `inputClosed`), or after `grace`. Closing at
    /// once while the client's unread bytes sit in the socket (an over-long
    /// line, a request to a refused connection) would reset the connection,
    /// and the client could lose the last line.
    func closeAfterLastLine(within grace: TimeAmount = .seconds(2)) {
        close(mode: .output).whenComplete { _ in
            self.eventLoop.scheduleTask(in: grace) { self.close(promise: nil) }
        }
    }
}
