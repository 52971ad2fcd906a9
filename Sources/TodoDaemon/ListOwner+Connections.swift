import Foundation
import TodoInterchange
import TodoModel
import TodoProtocol
import TodoViewModels

/// Connections and the order of their replies.
extension ListOwner {
    /// One client connection, as the owner sees it.
    final class ConnectionState {
        let id: Int
        let outbox: ConnectionOutbox
        /// Replies not yet released, in request order.
        var replies: [PendingReply] = []
        var firstReply = 0
        /// The connection is ending: once every reply is out, this line (if
        /// any) is the last, and the outbox is finished.
        var ending: Data??
        /// Import text sent in parts (`todo.import` with `more`), until the last part.
        var stagedImport: (format: InterchangeFormat, text: String)?

        init(id: Int, outbox: ConnectionOutbox) {
            self.id = id
            self.outbox = outbox
        }

        var hasReplies: Bool { firstReply < replies.count }
    }

    /// A reply whose content is decided and which may be sent once every
    /// revision it reports is durable: one part for a request, one per
    /// member for a batch.
    struct PendingReply {
        struct Part {
            var id: RequestID?
            /// The JSON object, without a newline.
            var object: Data
            var durableAt: Int
            /// A subscription this request made: ended if the reply fails.
            var subscription: Int?
            /// Shared list: the request, while its reply reports a revision
            /// not yet committed, to carry out again if another instance
            /// commits first.
            var request: IncomingRequest? = nil
        }

        var parts: [Part]
        var isBatch: Bool

        var durableAt: Int { parts.map(\.durableAt).max() ?? 0 }

        var line: Data {
            guard isBatch else { return parts[0].object + [UInt8(ascii: "\n")] }
            var line = Data([UInt8(ascii: "[")])
            for (index, part) in parts.enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                line.append(part.object)
            }
            line.append(contentsOf: [UInt8(ascii: "]"), UInt8(ascii: "\n")])
            return line
        }
    }

    // MARK: Connecting

    /// Registers a connection and queues its greeting, the first line it gets.
    /// Through the inbox, as lines are: a turn already scheduled when the
    /// connection's first lines arrive registers it before reading them.
    func connect(_ outbox: ConnectionOutbox, greeting: @escaping @Sendable (_ epoch: String, _ revision: Int) -> Data) {
        submit(NewConnection(outbox: outbox, greeting: greeting))
    }

    /// Registers a connection (in a turn) and queues its greeting.
    func register(_ new: NewConnection) {
        connections[new.outbox.connectionID] = ConnectionState(id: new.outbox.connectionID, outbox: new.outbox)
        new.outbox.send(new.greeting(epoch, publishedRevision))
        didChange()
    }

    /// Drops a connection that has gone: its subscriptions and own views.
    func disconnect(_ connection: Int) {
        loop.execute {
            self.connections[connection] = nil
            for (id, subscription) in self.subscriptions where subscription.connection == connection {
                self.subscriptions[id] = nil
                self.viewModel.closeView(subscription.view)
            }
            self.didChange()
        }
    }

    /// Ends a connection once every reply it is owed is out: `lastLine` (a
    /// shutdown notice, an error) follows them, and the connection closes.
    func end(_ connection: Int, lastLine: Data?) {
        loop.execute {
            guard let state = self.connections[connection], state.ending == nil else { return }
            state.ending = .some(lastLine)
            self.releaseReplies(of: state)
        }
    }

    // MARK: Replies

    /// Queues a reply behind the connection's earlier ones.
    func queue(_ reply: PendingReply, for connection: ConnectionState) {
        connection.replies.append(reply)
        touched.insert(connection.id)
    }

    /// Releases, on every touched connection, the replies whose revisions
    /// are durable, in order.
    func releaseReplies() {
        for id in touched.union(waiting) {
            if let connection = connections[id] { releaseReplies(of: connection) }
        }
        touched.removeAll(keepingCapacity: true)
    }

    func releaseReplies(of connection: ConnectionState) {
        while connection.hasReplies, connection.replies[connection.firstReply].durableAt <= publishedRevision {
            connection.outbox.send(connection.replies[connection.firstReply].line)
            connection.firstReply += 1
        }
        if connection.hasReplies {
            waiting.insert(connection.id)
        } else {
            waiting.remove(connection.id)
            connection.replies.removeAll(keepingCapacity: true)
            connection.firstReply = 0
            if let ending = connection.ending {
                if let line = ending { connection.outbox.send(line) }
                connection.outbox.finish()
                connection.ending = nil
            }
        }
    }

    /// Every reply part that reported a revision after `revision` (now taken
    /// back) becomes `error`; subscriptions those requests made are ended.
    func failReplies(after revision: Int, with error: RPCError) {
        for connection in connections.values {
            guard connection.hasReplies else { continue }
            for index in connection.firstReply..<connection.replies.count {
                for partIndex in connection.replies[index].parts.indices {
                    let part = connection.replies[index].parts[partIndex]
                    guard part.durableAt > revision else { continue }
                    if let subscription = part.subscription, let ended = subscriptions.removeValue(forKey: subscription) {
                        viewModel.closeView(ended.view)
                    }
                    connection.replies[index].parts[partIndex] = PendingReply.Part(
                        id: part.id, object: Self.object(MessageEncoding.error(id: part.id, error)), durableAt: 0)
                }
            }
            touched.insert(connection.id)
        }
    }

    /// A line without its newline.
    static func object(_ line: Data) -> Data {
        line.last == UInt8(ascii: "\n") ? line.dropLast() : line
    }

    // MARK: Requests

    /// Carries out one line's requests and queues the reply (none for notifications).
    func handle(_ line: IncomingLine, from connection: ConnectionState) {
        switch line {
        case .blank:
            return
        case .request(let parsed):
            if let part = answer(parsed, from: connection) {
                queue(PendingReply(parts: [part], isBatch: false), for: connection)
            }
        case .batch(let members):
            let parts = members.compactMap { answer($0, from: connection) }
            // A batch of notifications only is not answered at all.
            if !parts.isEmpty { queue(PendingReply(parts: parts, isBatch: true), for: connection) }
        }
    }

    func answer(_ parsed: Result<IncomingRequest, IncomingRequest.Rejection>, from connection: ConnectionState)
        -> PendingReply.Part?
    {
        let request: IncomingRequest
        switch parsed {
        case .failure(let rejection):
            return PendingReply.Part(
                id: rejection.id, object: Self.object(MessageEncoding.error(id: rejection.id, rejection.error)), durableAt: 0)
        case .success(let parsed):
            request = parsed
        }
        var madeSubscription: Int?
        do {
            let answer = try dispatch(request, from: connection)
            madeSubscription = answer.subscription
            guard let id = request.id else { return nil }
            return PendingReply.Part(
                id: id, object: Self.object(MessageEncoding.response(id: id, result: answer.result)),
                durableAt: answer.durableAt, subscription: answer.subscription,
                request: sharedStore != nil && answer.durableAt > publishedRevision ? request : nil)
        } catch {
            _ = madeSubscription
            guard let id = request.id else { return nil }
            return PendingReply.Part(id: id, object: Self.object(MessageEncoding.error(id: id, Self.rpcError(error))), durableAt: 0)
        }
    }

    /// Refused commands keep their meaning; anything else means the change was not made.
    static func rpcError(_ error: any Error) -> RPCError {
        switch error {
        case let error as RPCError: error
        case let error as TodoError: RPCError(error)
        default: .internalError(String(describing: error))
        }
    }
}
