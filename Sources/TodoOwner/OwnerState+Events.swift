import Foundation
import TodoModel
import TodoProtocol
import TodoViewState
import TodoViewModels

/// The events that go to subscriptions: published once durable, and resets
/// for a lagging client or after transactions were taken back.
extension OwnerState {
    /// Ends a subscription to a removed view, telling its client.
    mutating func endSubscription(_ subscription: Subscription, toRemoved name: String) {
        subscriptions[subscription.id] = nil
        guard connections[subscription.connection] != nil else { return }
        emit(
            .event(
                MessageEncoding.notification(
                    ViewRemoved.self,
                    params: .init(
                        subscription: subscription.id, view: name,
                        message: "The view \"\(name)\" was removed; this subscription has ended."))),
            to: subscription.connection)
        touched.insert(subscription.connection)
    }

    /// Sends one durable transaction's event to every subscription that has
    /// not seen it, and keeps the shared views' change sets for resuming.
    /// Subscribers that watch the same view and properties share one
    /// encoding of the event.
    public mutating func publish(_ transaction: PendingTransaction) {
        struct Group: Hashable {
            var view: ViewID
            var watched: PropertySelection
        }
        var encoded: [Group: Data] = [:]
        var empty: Data?
        let unchanged = ChangeBody(revision: transaction.revision, properties: [:], rows: [], cause: transaction.cause)

        // The shared views' change sets are kept for resuming clients as
        // the view model made them: the wire form is built only if a
        // subscriber is sent one or the history measures them
        // (`ChangeHistory.append`).
        var shared: [String: TodoListChange] = [:]
        for (view, change) in transaction.changes {
            guard case .shared(let name) = view else { continue }
            shared[name] = change
        }
        history.append(.init(revision: transaction.revision, cause: transaction.cause, changes: shared))

        // In subscription order, so a connection with several subscriptions
        // always gets their events in the same order.
        var endedSubscriptions = false
        defer { if endedSubscriptions { changed = true } }
        for id in subscriptions.keys.sorted() {
            let subscription = subscriptions[id]!
            guard subscription.seen < transaction.revision else { continue }
            if let removed = transaction.removedView, subscription.view == .shared(removed) {
                endSubscription(subscription, toRemoved: removed)
                endedSubscriptions = true
                continue
            }
            let group = Group(view: subscription.view, watched: subscription.watched)
            let data: Data
            if let done = encoded[group] {
                data = done
            } else if let change = transaction.changes[subscription.view] {
                let whole = ChangeBody(revision: transaction.revision, change: change, cause: transaction.cause)
                data = MessageEncoding.json(subscription.watched == .all ? whole : whole.restricted(to: subscription.watched))
                encoded[group] = data
            } else {
                if empty == nil { empty = MessageEncoding.json(unchanged) }
                data = empty!
            }
            // Not `touched`: a connection that only watches has no replies to release.
            emit(.event(ListViewChanged.line(subscription: subscription.id, encodedBody: data)), to: subscription.connection)
        }
    }

    /// A lagging connection has read everything queued: sends each of its
    /// subscriptions its whole current state as one reset event, and lets
    /// events flow again. Later events follow from this revision.
    ///
    /// Only a durable state is sent: while transactions wait to be stored,
    /// the list in memory holds changes a failed write takes back, or a
    /// shared list's replan numbers again, and a reset of it would show the
    /// watcher an item that never was, at a revision that later means
    /// another list. So the reset waits for the turn that has stored
    /// everything (`releaseReplies`); events stay held back until then.
    public mutating func resync(connection id: Int) {
        guard connections[id] != nil else { return }
        resyncsWaiting.insert(id)
        sendWaitingResyncs()
    }

    /// The resets `resync` holds back, once nothing waits to be stored.
    mutating func sendWaitingResyncs() {
        guard !resyncsWaiting.isEmpty, unpublished.isEmpty else { return }
        for id in resyncsWaiting.sorted() where connections[id] != nil {
            sendResets(to: id)
            touched.insert(id)
        }
        resyncsWaiting.removeAll()
    }

    /// Sends each subscription of `connection` its whole current state as one
    /// reset event at the newest revision (as applied: the events of
    /// transactions up to it are not sent again).
    mutating func sendResets(to connection: Int) {
        var lines: [Data] = []
        for (id, subscription) in subscriptions.sorted(by: { $0.key < $1.key }) where subscription.connection == connection {
            guard let state = viewModel.state(of: subscription.view) else { continue }
            let body = ChangeBody(revision: revision, state: state, cause: nil).restricted(to: subscription.watched)
            lines.append(ListViewChanged.line(subscription: id, encodedBody: MessageEncoding.json(body)))
            subscriptions[id]!.seen = revision
        }
        emit(.resumeEvents(lines), to: connection)
    }

    /// After transactions were taken back: a subscriber that was sent a state
    /// including them gets the state as it is now.
    mutating func resetSubscribersAhead() {
        let ahead = Set(subscriptions.values.filter { $0.seen > revision }.map(\.connection))
        for id in ahead {
            guard connections[id] != nil else { continue }
            sendResets(to: id)
            touched.insert(id)
        }
    }
}
