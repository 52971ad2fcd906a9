import Foundation
import TodoModel
import TodoProtocol
import TodoViewModels

/// Connections and the order of their replies.
extension OwnerState {
    // MARK: Connecting

    /// Registers a connection and queues its greeting, the first line it gets.
    public mutating func connect(_ id: Int, greeting: (_ epoch: String, _ revision: Int) -> Data) {
        connections[id] = ConnectionState(id: id)
        emit(.message(greeting(epoch, publishedRevision)), to: id)
        changed = true
    }

    /// Drops a connection that has gone: its subscriptions and own views.
    public mutating func disconnect(_ connection: Int) {
        connections[connection] = nil
        for (id, subscription) in subscriptions where subscription.connection == connection {
            subscriptions[id] = nil
            viewModel.closeView(subscription.view)
        }
        touched.remove(connection)
        waiting.remove(connection)
        // Nothing more reaches it, not even what this turn decided before.
        turnLines.removeAll { $0.connection == connection }
        changed = true
    }

    /// Ends a connection once every reply it is owed is out: `lastLine` (a
    /// shutdown notice, an error) follows them, and the connection closes.
    public mutating func end(_ connection: Int, lastLine: Data?) {
        guard connections[connection]?.ending == nil, connections[connection] != nil else { return }
        connections[connection]!.ending = .some(lastLine)
        releaseReplies(of: connection)
    }

    // MARK: Replies

    /// Queues a reply behind the connection's earlier ones. One that waits
    /// for a revision not yet durable lets nothing go before it is: the
    /// connection waits (an edit's reply, the common case), and the end of
    /// the turn does not look at it.
    mutating func queue(_ reply: PendingReply, for connection: Int) {
        guard connections[connection] != nil else { return }
        connections[connection]!.replies.append(reply)
        if reply.durableAt > publishedRevision { waiting.insert(connection) } else { touched.insert(connection) }
    }

    /// Releases, on every touched connection, the replies whose revisions
    /// are durable, in order.
    mutating func releaseReplies() {
        if !resyncsWaiting.isEmpty { sendWaitingResyncs() }
        // Each connection once, without making their union on every turn.
        for id in touched { releaseReplies(of: id) }
        if releasedRevision != publishedRevision {
            for id in waiting where !touched.contains(id) { releaseReplies(of: id) }
            releasedRevision = publishedRevision
        }
        touched.removeAll(keepingCapacity: true)
    }

    mutating func releaseReplies(of id: Int) {
        // The turn's lines are lent to the connection (a swap, not a copy).
        var lines: [ConnectionLine] = []
        swap(&lines, &turnLines)
        defer { swap(&lines, &turnLines) }
        guard let stillWaiting = connections[id]?.releaseReplies(upTo: publishedRevision, into: &lines) else { return }
        if stillWaiting { waiting.insert(id) } else { waiting.remove(id) }
    }

    // MARK: Lines

    /// Adds `line` to what `connection` is sent at the end of this turn.
    /// (Not looked up: a connection gone by then is sent nothing; the shell
    /// has no outbox for it.)
    mutating func emit(_ line: OutgoingLine, to connection: Int) {
        turnLines.append(ConnectionLine(connection: connection, line: line))
    }

    /// Ends the turn: releases the replies that may go, and hands over
    /// everything the turn decided for the shell to do.
    public mutating func endTurn() -> TurnActions {
        releaseReplies()
        var actions = TurnActions(tick: requestedTick, statusChanged: changed, reachabilityChanged: reachabilityChanged)
        requestedTick = nil
        changed = false
        reachabilityChanged = nil
        if !turnLines.isEmpty { swap(&actions.lines, &turnLines) }
        return actions
    }

    /// Every reply part that reported a revision after `revision` (now taken
    /// back) becomes `error`; subscriptions those requests made are ended.
    mutating func failReplies(after revision: Int, with error: RPCError) {
        for id in connections.keys {
            guard connections[id]!.hasReplies else { continue }
            for index in connections[id]!.pendingReplies {
                for partIndex in connections[id]!.replies[index].parts.indices {
                    let part = connections[id]!.replies[index].parts[partIndex]
                    guard part.durableAt > revision else { continue }
                    if let subscription = part.subscription, let ended = subscriptions.removeValue(forKey: subscription) {
                        viewModel.closeView(ended.view)
                    }
                    connections[id]!.replies[index].parts[partIndex] = PendingReply.Part(
                        id: part.id, line: MessageEncoding.error(id: part.id, error), durableAt: 0)
                }
            }
            touched.insert(id)
        }
    }

    // MARK: Requests

    /// Carries out one line's requests and queues the reply (none for notifications).
    public mutating func handle(_ line: IncomingLine, from connection: Int) {
        guard connections[connection] != nil else { return }
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

    mutating func answer(_ parsed: Result<IncomingRequest, IncomingRequest.Rejection>, from connection: Int) -> PendingReply.Part? {
        let request: IncomingRequest
        switch parsed {
        case .failure(let rejection):
            return PendingReply.Part(id: rejection.id, line: MessageEncoding.error(id: rejection.id, rejection.error), durableAt: 0)
        case .success(let parsed):
            request = parsed
        }
        do {
            let answer = try dispatch(request, from: connection)
            guard let id = request.id, let line = answer.result else { return nil }
            return PendingReply.Part(
                id: id, line: line,
                durableAt: answer.durableAt, subscription: answer.subscription,
                request: isShared && answer.durableAt > publishedRevision ? request : nil)
        } catch {
            guard let id = request.id else { return nil }
            return PendingReply.Part(id: id, line: MessageEncoding.error(id: id, Self.rpcError(error)), durableAt: 0)
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
