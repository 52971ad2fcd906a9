import Foundation
import Synchronization
import TodoOwner

/// A connection's lines as the owner queues them, kept for the test to read:
/// what the channel handler would write, without a socket.
final class RecordedLines: ConnectionLines {
    private let state = Mutex(State())

    private struct State {
        var lines: [String] = []
        var finished = false
    }

    func send(_ line: Data) { append(line) }
    func sendEvent(_ line: Data) { append(line) }
    func resumeEvents(with lines: [Data]) { lines.forEach(append) }
    func finish() { state.withLock { $0.finished = true } }

    private func append(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        state.withLock { $0.lines.append(text) }
    }

    /// Every line so far, the greeting first.
    var lines: [String] { state.withLock { $0.lines } }
    /// The lines after the greeting.
    var afterGreeting: [String] { Array(lines.dropFirst()) }
    /// Replies and errors: lines with an id (keys are sorted: `"error"`, `"id"`, `"jsonrpc"`, `"result"`).
    var replies: [String] { afterGreeting.filter { $0.contains(#""jsonrpc":"2.0","result""#) || $0.hasPrefix(#"{"error""#) } }
    var events: [String] { afterGreeting.filter { $0.hasPrefix(#"{"jsonrpc":"2.0","method":"view.changed""#) } }
    var isFinished: Bool { state.withLock { $0.finished } }
}
