import Foundation
import TodoModel
import TodoProtocol
import TodoStoreInterface
import TodoViewModels

/// A shared list: what other instances committed, applied on top of what
/// this instance has published, and this instance's requests carried out
/// again on the result (see `SharedListFollower` in TodoDaemon for when).
/// An edit of an item another instance deleted now gets `todo.notFound`, as
/// it would have done had it come later; the list equals the transactions
/// applied one by one in revision order.
extension OwnerState {
    /// Applies what other instances committed on top of what this one has
    /// announced, and carries out again what this one had not yet stored.
    /// Returns the others' transactions, for the caller to `publish` (their
    /// events and history) in order, before any of this instance's own.
    public mutating func integrate(_ missed: [StoredTransaction]) -> [PendingTransaction] {
        let replanned = unpublished
        for transaction in replanned.reversed() {
            if let applied = transaction.applied { viewModel.revert(applied) }
        }
        unpublished = []
        revision = publishedRevision
        let requests = requestsToCarryOutAgain(replanned)

        var others: [PendingTransaction] = []
        for entry in missed where entry.revision > publishedRevision {
            guard entry.revision == publishedRevision + 1 else { break }  // read the rest next time
            let outcome = viewModel.applyStored(entry.write)
            if let next = outcome.nextEvent { requestTick(at: next) }
            revision += 1
            others.append(
                PendingTransaction(
                    revision: revision, changes: outcome.changes, cause: entry.cause.flatMap(Self.cause(fromJSON:)), write: nil,
                    applied: nil, removedView: entry.write.removedViews.first))
            publishedRevision = revision
        }

        carryOut(requests)
        for transaction in replanned where transaction.request == nil {
            if transaction.isTick {
                requestTick(at: now())
            } else if transaction.applied == nil {
                // A change of this instance's own (reloaded settings): still in memory, announced anew.
                _ = record(transaction.changes, write: transaction.write, applied: nil, cause: transaction.cause)
            }
        }
        changed = true
        return others
    }

    /// A request to carry out again, and where its reply goes.
    private struct Replanned {
        var connection: Int
        var request: IncomingRequest
        /// The revision its reply reported, which orders the requests.
        var order: Int
        /// Its reply's place: (reply, part) on its connection; nil for a notification.
        var place: (reply: Int, part: Int)?
    }

    /// A request that made a transaction: its connection, the transaction's
    /// revision, and the request's id.
    private struct MadeTransaction: Hashable {
        var connection: Int
        var revision: Int
        var id: RequestID?
    }

    /// Every request whose reply reported a revision that is taken back,
    /// in the order they were carried out; subscriptions they made end (they
    /// are made again).
    private mutating func requestsToCarryOutAgain(_ replanned: [PendingTransaction]) -> [Replanned] {
        var found: [Replanned] = []
        let changing = Set(
            replanned.compactMap { transaction in
                transaction.request.map { MadeTransaction(connection: $0.connection, revision: transaction.revision, id: $0.request.id) }
            })
        for (id, connection) in connections.sorted(by: { $0.key < $1.key }) where connection.hasReplies {
            for index in connection.pendingReplies {
                for (partIndex, part) in connection.replies[index].parts.enumerated() {
                    guard part.durableAt > publishedRevision, let request = part.request else { continue }
                    // A part of an import only staged text: nothing to plan again.
                    if request.method == "todo.import",
                        !changing.contains(MadeTransaction(connection: id, revision: part.durableAt, id: request.id))
                    {
                        continue
                    }
                    if let subscription = part.subscription, let ended = subscriptions.removeValue(forKey: subscription) {
                        viewModel.closeView(ended.view)
                    }
                    found.append(Replanned(connection: id, request: request, order: part.durableAt, place: (index, partIndex)))
                }
            }
        }
        for transaction in replanned {
            // Notifications (no id) have no reply to find them by.
            guard let made = transaction.request, made.request.id == nil else { continue }
            found.append(Replanned(connection: made.connection, request: made.request, order: transaction.revision, place: nil))
        }
        // Stable: requests of one revision keep their order on their connection.
        return found.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(\.element)
    }

    private mutating func carryOut(_ requests: [Replanned]) {
        for replanned in requests {
            let connection = replanned.connection
            guard connections[connection] != nil else { continue }
            let part: PendingReply.Part?
            if replanned.request.method == "todo.import" {
                // Its staged text is spent: the client sends the file again.
                part = replanned.request.id.map { id in
                    PendingReply.Part(id: id, line: MessageEncoding.error(id: id, RPCError(TodoError.importOutdated)), durableAt: 0)
                }
            } else {
                part = answer(.success(replanned.request), from: connection)
            }
            if let place = replanned.place, let part {
                connections[connection]?.replies[place.reply].parts[place.part] = part
            }
            touched.insert(connection)
        }
        // A reply that reported a revision no longer to come waits for the newest.
        for id in connections.keys where connections[id]!.hasReplies {
            for index in connections[id]!.pendingReplies {
                for partIndex in connections[id]!.replies[index].parts.indices
                where connections[id]!.replies[index].parts[partIndex].durableAt > revision {
                    connections[id]!.replies[index].parts[partIndex].durableAt = revision
                    releasedRevision = nil
                }
            }
        }
    }

    public static func json(_ cause: Cause) -> String {
        String(decoding: MessageEncoding.json(cause), as: UTF8.self)
    }

    static func cause(fromJSON text: String) -> Cause? {
        try? causeDecoder.decode(Cause.self, from: Data(text.utf8))
    }

    /// One for every transaction read: a decoder is costly to make.
    private static let causeDecoder = JSONDecoder()
}
