import Foundation
import TodoModel
import TodoProtocol
import TodoViewModels

/// Connections, subscriptions, and the events that go to them.
extension ViewModelHost {
    // MARK: Connections

    /// Registers a connection and returns what its greeting says: the epoch
    /// and the revision it starts at.
    public func connect(_ sink: any ConnectionSink) -> (epoch: String, revision: Int) {
        connections[sink.connectionID] = sink
        didChange()
        return (epoch, publishedRevision)
    }

    /// Drops a connection that has gone: its subscriptions and own views.
    public func disconnect(connection: Int) {
        connections[connection] = nil
        for (id, subscription) in subscriptions where subscription.sink.connectionID == connection {
            subscriptions[id] = nil
            viewModel.closeView(subscription.view)
        }
        didChange()
    }

    // MARK: Reading and subscribing

    /// A view's state, once, and the revision it is at. An own view lives only for this call.
    public func state(of selection: ViewSelection) throws(RPCError) -> (state: TodoListState, durableAt: Int) {
        let id = try viewID(for: selection)
        defer { viewModel.closeView(id) }
        return (viewModel.openView(id, filter: selection.filter ?? .all, sort: selection.sort ?? .created), revision)
    }

    /// Registers a subscription and returns the state it starts from, or the
    /// events it missed since `params.since`. Both happen in one actor turn,
    /// so no change can fall between them.
    public func subscribe(_ params: SubscribeListView.Params, sink: any ConnectionSink) throws(RPCError)
        -> (result: SubscribeListView.Result, durableAt: Int)
    {
        let watched = try Self.selection(params.properties)
        let selection = params.selection
        let view = try viewID(for: selection)
        let state = viewModel.openView(view, filter: selection.filter ?? .all, sort: selection.sort ?? .created)
        let id = nextSubscriptionID
        nextSubscriptionID += 1
        subscriptions[id] = Subscription(id: id, sink: sink, view: view, watched: watched, seen: revision)
        didChange()

        func reply(_ mode: SubscribeListView.Mode, replay: [ChangeBody] = [], reason: String? = nil) -> SubscribeListView.Result {
            SubscribeListView.Result(
                subscription: id, epoch: epoch, revision: revision, mode: mode,
                state: mode == .replay ? nil : WatchedState(state, watching: watched), replay: replay, reason: reason)
        }
        guard let since = params.since else { return (reply(.snapshot), revision) }
        switch resumption(of: view, since: since) {
        case .reset(let reason): return (reply(.reset, reason: reason), revision)
        case .replay(let missed): return (reply(.replay, replay: missed.map { $0.restricted(to: watched) }), revision)
        }
    }

    private enum Resumption {
        case replay([ChangeBody])
        case reset(reason: String)
    }

    /// Whether a client at `since` can be brought up to date by replaying.
    private func resumption(of view: ViewID, since: ResumePoint) -> Resumption {
        guard since.epoch == epoch else { return .reset(reason: "epochChanged") }
        guard since.revision <= revision else { return .reset(reason: "futureRevision") }
        if since.revision == revision { return .replay([]) }
        guard case .shared(let name) = view else { return .reset(reason: "ownView") }
        guard history.covers(after: since.revision) else { return .reset(reason: "historyTrimmed") }
        var bodies = history.entries(after: since.revision).map { entry in
            entry.views[name] ?? ChangeBody(revision: entry.revision, properties: [:], rows: [], cause: entry.cause)
        }
        for transaction in unpublished where transaction.revision > since.revision {
            bodies.append(
                transaction.changes[view].map { ChangeBody(revision: transaction.revision, change: $0, cause: transaction.cause) }
                    ?? ChangeBody(revision: transaction.revision, properties: [:], rows: [], cause: transaction.cause))
        }
        return .replay(bodies)
    }

    /// Ends a subscription of this connection.
    public func unsubscribe(_ id: Int, connection: Int) throws(RPCError) {
        guard let subscription = subscriptions[id], subscription.sink.connectionID == connection else {
            throw .unknownSubscription(id)
        }
        subscriptions[id] = nil
        viewModel.closeView(subscription.view)
        didChange()
    }

    /// Changes a shared view's or a subscription's own view's filter and sort.
    public func setOptions(_ params: SetViewOptions.Params, cause: Cause) throws -> Int {
        let view: ViewID
        if let id = params.subscription {
            guard let subscription = subscriptions[id], subscription.sink.connectionID == cause.connection else {
                throw RPCError.unknownSubscription(id)
            }
            view = subscription.view
        } else {
            view = try viewID(for: ViewSelection(view: params.view ?? "main"))
            viewModel.openView(view)
        }
        guard let change = try viewModel.setOptions(of: view, filter: params.filter, sort: params.sort) else {
            return revision
        }
        return record([view: change], cause: cause)
    }

    public func status(dataFile: String, uptime: TimeInterval, server: String) -> ServerStatus.Result {
        ServerStatus.Result(
            server: server, protocol: ServerHello.protocolVersion, epoch: epoch, revision: publishedRevision,
            items: viewModel.itemCount, connections: connections.count, subscriptions: subscriptions.count,
            uptimeSeconds: Int(uptime), dataFile: dataFile)
    }

    private func viewID(for selection: ViewSelection) throws(RPCError) -> ViewID {
        if selection.own == true {
            defer { nextOwnViewID += 1 }
            return .own(nextOwnViewID)
        }
        let name = selection.view ?? "main"
        guard !name.isEmpty, name.count <= 64 else {
            throw .invalidParams("\"view\" must be a name of 1 to 64 characters")
        }
        return .shared(name)
    }

    private static func selection(_ names: [String]?) throws(RPCError) -> PropertySelection {
        guard let names else { return .all }
        for name in names where !PropertySelection.known.contains(name) {
            throw .unknownProperty(name, known: PropertySelection.known)
        }
        return PropertySelection(names: Set(names))
    }

    // MARK: Events

    /// Sends one transaction's event to every subscription that has not
    /// seen it, and keeps the shared views' change sets for resuming.
    /// Subscribers that watch the same view and properties share one
    /// encoding of the event.
    func publish(_ transaction: PendingTransaction) {
        struct Group: Hashable {
            var view: ViewID
            var watched: PropertySelection
        }
        var encoded: [Group: Data] = [:]
        var empty: Data?
        let unchanged = ChangeBody(revision: transaction.revision, properties: [:], rows: [], cause: transaction.cause)
        func encode(_ body: ChangeBody) -> Data {
            (try? encoder.encode(body)) ?? Data("{}".utf8)
        }

        var kept: [String: ChangeBody] = [:]
        var keptBytes = 0
        for (view, change) in transaction.changes {
            guard case .shared(let name) = view else { continue }
            let body = ChangeBody(revision: transaction.revision, change: change, cause: transaction.cause)
            let data = encode(body)
            kept[name] = body
            keptBytes += data.count
            encoded[Group(view: view, watched: .all)] = data
        }
        history.append(.init(revision: transaction.revision, cause: transaction.cause, views: kept, bytes: keptBytes))

        // In subscription order, so a connection with several subscriptions
        // always gets their events in the same order.
        for id in subscriptions.keys.sorted() {
            let subscription = subscriptions[id]!
            guard subscription.seen < transaction.revision else { continue }
            let group = Group(view: subscription.view, watched: subscription.watched)
            let data: Data
            if let done = encoded[group] {
                data = done
            } else if let change = transaction.changes[subscription.view] {
                let body = ChangeBody(revision: transaction.revision, change: change, cause: transaction.cause)
                    .restricted(to: subscription.watched)
                data = encode(body)
                encoded[group] = data
            } else {
                if empty == nil { empty = encode(unchanged) }
                data = empty!
            }
            subscription.sink.sendEvent(ListViewChanged.line(subscription: subscription.id, encodedBody: data))
        }
    }

    /// A lagging connection has read everything queued: sends each of its
    /// subscriptions its whole current state as one reset event, and lets
    /// events flow again. Later events follow from this revision.
    public func resync(connection: Int) {
        guard let sink = connections[connection] else { return }
        var lines: [Data] = []
        for (id, subscription) in subscriptions.sorted(by: { $0.key < $1.key }) where subscription.sink.connectionID == connection {
            guard let state = viewModel.state(of: subscription.view) else { continue }
            let body = ChangeBody(revision: revision, state: state, cause: nil).restricted(to: subscription.watched)
            lines.append(ListViewChanged.line(subscription: id, encodedBody: (try? encoder.encode(body)) ?? Data("{}".utf8)))
            subscriptions[id]!.seen = revision
        }
        sink.resumeEvents(with: lines)
    }
}
