import Foundation
import TodoModel
import TodoProtocol
import TodoViewModels

/// Subscriptions, and the events that go to them.
extension ListOwner {
    /// Registers a subscription and returns the state it starts from, or the
    /// events it missed since `params.since`. Both happen in one turn, so no
    /// change can fall between them.
    func subscribe(_ params: SubscribeListView.Params, connection: Int) throws(RPCError)
        -> (result: SubscribeListView.Result, durableAt: Int)
    {
        let watched = try Self.selection(params.properties)
        let selection = params.selection
        let view = try viewID(for: selection)
        let definition = try Self.definition(of: selection, fields: viewModel.fields)
        let state: TodoListState
        do throws(TodoError) {
            state = try viewModel.openView(view, definition: definition)
        } catch {
            throw RPCError(error)
        }
        let id = nextSubscriptionID
        nextSubscriptionID += 1
        subscriptions[id] = Subscription(id: id, connection: connection, view: view, watched: watched, seen: revision)
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
        // A view removed or created since is not the view the client holds:
        // no change set in the history turns one into the other.
        if let replaced = viewsReplacedAt[name], replaced > since.revision { return .reset(reason: "viewReplaced") }
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
    func unsubscribe(_ id: Int, connection: Int) throws(RPCError) {
        guard let subscription = subscriptions[id], subscription.connection == connection else {
            throw .unknownSubscription(id)
        }
        subscriptions[id] = nil
        viewModel.closeView(subscription.view)
        didChange()
    }

    /// Changes what a named view or a subscription's own view shows.
    func setOptions(_ params: SetViewOptions.Params, cause: Cause) throws -> Int {
        let view: ViewID
        if let id = params.subscription {
            guard let subscription = subscriptions[id], subscription.connection == cause.connection else {
                throw RPCError.unknownSubscription(id)
            }
            view = subscription.view
        } else {
            view = try viewID(for: ViewSelection(view: params.view ?? "main"))
        }
        let query = try params.query.map { text throws(RPCError) in try Self.query(text, fields: viewModel.fields) }
        guard
            let outcome = try viewModel.setOptions(
                of: view, filter: params.filter, query: query, sort: params.sort, grouping: params.grouping.map(\.grouping))
        else {
            return revision
        }
        return record(outcome.changes, write: outcome.write, applied: outcome.applied, cause: cause)
    }

    /// Saves a named view; everyone watching it is sent the change.
    func saveView(_ params: SaveView.Params, cause: Cause) throws -> (NamedViewSummary, Int) {
        let definition = ViewDefinition(
            filter: params.filter ?? .all, query: try Self.query(params.query ?? "", fields: viewModel.fields),
            sort: params.sort ?? .created,
            grouping: params.grouping?.grouping)
        var durableAt = revision
        let isNew = !viewModel.namedViews.contains { $0.name == params.name }
        if let outcome = try viewModel.saveView(params.name, definition) {
            durableAt = record(outcome.changes, write: outcome.write, applied: outcome.applied, cause: cause)
            if isNew { viewsReplacedAt[params.name] = durableAt }
        }
        guard let saved = viewModel.namedViews.first(where: { $0.name == params.name }) else {
            throw RPCError.internalError("the saved view is missing")
        }
        return (NamedViewSummary(saved), durableAt)
    }

    /// Removes a named view. Every subscription to it ends with
    /// `view.removed` when the removal is published (`publish`): like any
    /// announcement it waits until the removal is durable, and a removal the
    /// store refuses is taken back with the subscriptions untouched.
    func removeView(_ name: String, cause: Cause) throws -> Int {
        let outcome = try viewModel.removeView(name)
        let durableAt = record(outcome.changes, write: outcome.write, applied: outcome.applied, cause: cause, removedView: name)
        viewsReplacedAt[name] = durableAt
        return durableAt
    }

    /// Ends a subscription to a removed view, telling its client.
    private func endSubscription(_ subscription: Subscription, toRemoved name: String) {
        subscriptions[subscription.id] = nil
        guard let connection = connections[subscription.connection] else { return }
        connection.outbox.sendEvent(
            MessageEncoding.notification(
                ViewRemoved.self,
                params: .init(
                    subscription: subscription.id, view: name,
                    message: "The view \"\(name)\" was removed; this subscription has ended.")))
        touched.insert(connection.id)
    }

    /// Query text as a request gives it, read with the list's declared
    /// `fields` (the view model's), whose names are query keys too.
    static func query(_ text: String, fields: FieldCatalog) throws(RPCError) -> Query {
        do { return try Query.parse(text, fields: fields) } catch { throw .invalidQuery(error) }
    }

    /// The definition a selection asks for (for a client's own view).
    static func definition(of selection: ViewSelection, fields: FieldCatalog) throws(RPCError) -> ViewDefinition {
        ViewDefinition(
            filter: selection.filter ?? .all, query: try query(selection.query ?? "", fields: fields),
            sort: selection.sort ?? .created,
            grouping: selection.grouping?.grouping, flat: selection.flat ?? false)
    }

    func viewID(for selection: ViewSelection) throws(RPCError) -> ViewID {
        if selection.flat == true && selection.own != true {
            throw .invalidParams("\"flat\" is for a client's own view: send it with \"own\": true (named views show the tree)")
        }
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

    /// Sends one durable transaction's event to every subscription that has
    /// not seen it, and keeps the shared views' change sets for resuming.
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

        var kept: [String: ChangeBody] = [:]
        var keptBytes = 0
        for (view, change) in transaction.changes {
            guard case .shared(let name) = view else { continue }
            let body = ChangeBody(revision: transaction.revision, change: change, cause: transaction.cause)
            let data = MessageEncoding.json(body)
            kept[name] = body
            keptBytes += data.count
            encoded[Group(view: view, watched: .all)] = data
        }
        history.append(.init(revision: transaction.revision, cause: transaction.cause, views: kept, bytes: keptBytes))

        // In subscription order, so a connection with several subscriptions
        // always gets their events in the same order.
        var endedSubscriptions = false
        defer { if endedSubscriptions { didChange() } }
        for id in subscriptions.keys.sorted() {
            let subscription = subscriptions[id]!
            guard subscription.seen < transaction.revision else { continue }
            if let removed = transaction.removedView, subscription.view == .shared(removed) {
                endSubscription(subscription, toRemoved: removed)
                endedSubscriptions = true
                continue
            }
            guard let connection = connections[subscription.connection] else { continue }
            let group = Group(view: subscription.view, watched: subscription.watched)
            let data: Data
            if let done = encoded[group] {
                data = done
            } else if let change = transaction.changes[subscription.view] {
                let body = ChangeBody(revision: transaction.revision, change: change, cause: transaction.cause)
                    .restricted(to: subscription.watched)
                data = MessageEncoding.json(body)
                encoded[group] = data
            } else {
                if empty == nil { empty = MessageEncoding.json(unchanged) }
                data = empty!
            }
            connection.outbox.sendEvent(ListViewChanged.line(subscription: subscription.id, encodedBody: data))
            touched.insert(connection.id)
        }
    }

    /// A lagging connection has read everything queued: sends each of its
    /// subscriptions its whole current state as one reset event, and lets
    /// events flow again. Later events follow from this revision.
    func resync(connection id: Int) {
        loop.execute {
            guard let connection = self.connections[id] else { return }
            self.sendResets(to: connection)
            self.touched.insert(id)
            self.releaseReplies()
        }
    }

    /// Sends each subscription of `connection` its whole current state as one
    /// reset event at the newest revision (as applied: the events of
    /// transactions up to it are not sent again).
    func sendResets(to connection: ConnectionState) {
        var lines: [Data] = []
        for (id, subscription) in subscriptions.sorted(by: { $0.key < $1.key }) where subscription.connection == connection.id {
            guard let state = viewModel.state(of: subscription.view) else { continue }
            let body = ChangeBody(revision: revision, state: state, cause: nil).restricted(to: subscription.watched)
            lines.append(ListViewChanged.line(subscription: id, encodedBody: MessageEncoding.json(body)))
            subscriptions[id]!.seen = revision
        }
        connection.outbox.resumeEvents(with: lines)
    }

    /// After transactions were taken back: a subscriber that was sent a state
    /// including them gets the state as it is now.
    func resetSubscribersAhead() {
        let ahead = Set(subscriptions.values.filter { $0.seen > revision }.map(\.connection))
        for id in ahead {
            guard let connection = connections[id] else { continue }
            sendResets(to: connection)
            touched.insert(id)
        }
    }
}
