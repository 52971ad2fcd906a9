import Foundation
import TodoModel
import TodoProtocol

/// One client connection, as the owner sees it: the replies it is owed,
/// in request order.
struct ConnectionState {
    let id: Int
    /// Replies not yet released, in request order.
    var replies: [PendingReply] = []
    var firstReply = 0
    /// The connection is ending: once every reply is out, this line (if
    /// any) is the last, and the connection closes.
    var ending: Data??
    /// Import text sent in parts (`todo.import` with `more`), until the last part.
    var stagedImport: (format: InterchangeFormat, text: String)?

    init(id: Int) {
        self.id = id
    }

    var hasReplies: Bool { firstReply < replies.count }

    /// The indices of the replies not yet released.
    var pendingReplies: Range<Int> { firstReply..<replies.count }

    /// Sends the replies whose revisions are durable (up to `published`),
    /// in order, and the last line once every reply is out and the
    /// connection is ending, into the turn's `lines`. Returns whether
    /// replies still wait.
    mutating func releaseReplies(upTo published: Int, into lines: inout [ConnectionLine]) -> Bool {
        while hasReplies, replies[firstReply].durableAt <= published {
            lines.append(ConnectionLine(connection: id, line: .message(replies[firstReply].line)))
            firstReply += 1
        }
        if hasReplies { return true }
        replies.removeAll(keepingCapacity: true)
        firstReply = 0
        if let ending {
            if let line = ending { lines.append(ConnectionLine(connection: id, line: .message(line))) }
            lines.append(ConnectionLine(connection: id, line: .finish))
            self.ending = nil
        }
        return false
    }
}

/// A reply whose content is decided and which may be sent once every
/// revision it reports is durable: one part for a request, one per member
/// for a batch.
struct PendingReply {
    struct Part {
        var id: RequestID?
        /// The reply as a line: the JSON object and a newline, as it is
        /// sent when it is not a batch's member (most replies).
        var line: Data
        var durableAt: Int
        /// A subscription this request made: ended if the reply fails.
        var subscription: Int?
        /// Shared list: the request, while its reply reports a revision not
        /// yet committed, to carry out again if another instance commits first.
        var request: IncomingRequest? = nil
    }

    var parts: [Part]
    var isBatch: Bool

    var durableAt: Int { parts.count == 1 ? parts[0].durableAt : parts.map(\.durableAt).max() ?? 0 }

    /// `REPLY\n`, or `[REPLY,REPLY]\n` for a batch.
    var line: Data {
        isBatch ? MessageEncoding.batch(parts.map(\.line)) : parts[0].line
    }
}
