import Foundation
import TodoOwner

/// A connection's lines as the owner's turns decide them, kept for the test
/// to read: what the shell would hand to the connection's outbox, without
/// an outbox or a socket. Events are kept whether or not the connection
/// lags: lagging is the outbox's to decide, not the owner's.
final class RecordedLines {
    private(set) var lines: [String] = []
    private(set) var isFinished = false

    func record(_ outgoing: [OutgoingLine]) {
        for line in outgoing {
            switch line {
            case .message(let data), .event(let data): append(data)
            case .resumeEvents(let lines): lines.forEach(append)
            case .finish: isFinished = true
            }
        }
    }

    private func append(_ data: Data) {
        lines.append(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines))
    }

    /// The lines after the greeting.
    var afterGreeting: [String] { Array(lines.dropFirst()) }
    /// Replies and errors: lines with an id (keys are sorted: `"error"`, `"id"`, `"jsonrpc"`, `"result"`).
    var replies: [String] { afterGreeting.filter { $0.contains(#""jsonrpc":"2.0","result""#) || $0.hasPrefix(#"{"error""#) } }
    var events: [String] { afterGreeting.filter { $0.hasPrefix(#"{"jsonrpc":"2.0","method":"view.changed""#) } }
}

/// The connections of one owner in a test, by id, standing in for the
/// shell's outboxes.
struct RecordedConnections {
    private(set) var clients: [Int: RecordedLines] = [:]

    /// Connects a client to `owner` and returns where its lines go.
    mutating func connect(
        _ id: Int, to owner: inout OwnerState,
        greeting: (_ epoch: String, _ revision: Int) -> Data = { epoch, revision in
            Data(#"{"hello":"\#(epoch)","revision":\#(revision)}"#.utf8)
        }
    ) -> RecordedLines {
        let client = RecordedLines()
        clients[id] = client
        owner.connect(id, greeting: greeting)
        return client
    }

    /// Ends the owner's turn as the shell does, handing each connection its
    /// lines; returns the rest of what the turn decided.
    @discardableResult
    func endTurn(of owner: inout OwnerState) -> TurnActions {
        let actions = owner.endTurn()
        for line in actions.lines {
            clients[line.connection]?.record([line.line])
        }
        return actions
    }
}
