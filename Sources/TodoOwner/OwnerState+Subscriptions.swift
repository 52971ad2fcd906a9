import Foundation
import TodoModel
import TodoProtocol
import TodoViewModels
import TodoViewState

/// Subscriptions, and the events that go to them.
extension OwnerState {
    /// Registers a subscription and returns the state it starts from, or the
    /// events it missed since `params.since`. Both happen in one turn, so no
    /// change can fall between them.
    mutating func subscribe(_ params: SubscribeListView.Params, connection: Int) throws(RPCError)
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
        changed = true

        func reply(_ mode: SubscribeListView.Mode, replay: [ChangeBody] = [], reason: String? = nil) -> SubscribeListView.Result {
            SubscribeListView.Result(
                subscription: id, epoch: epoch, revision: revision, mode: mode,
                state: mode == .replay ? nil : WatchedState(state, watching: watched), replay: replay, reason: reason)
        }
        guard let since = params.since else { return (reply(.snapshot), revision) }
        history.settle()
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
            entry.view(name) ?? ChangeBody(revision: entry.revision, properties: [:], rows: [], cause: entry.cause)
        }
        for transaction in unpublished where transaction.revision > since.revision {
            bodies.append(
                transaction.changes[view].map { ChangeBody(revision: transaction.revision, change: $0, cause: transaction.cause) }
                    ?? ChangeBody(revision: transaction.revision, properties: [:], rows: [], cause: transaction.cause))
        }
        return .replay(bodies)
    }

    /// Ends a subscription of this connection.
    mutating func unsubscribe(_ id: Int, connection: Int) throws(RPCError) {
        guard let subscription = subscriptions[id], subscription.connection == connection else {
            throw .unknownSubscription(id)
        }
        subscriptions[id] = nil
        viewModel.closeView(subscription.view)
        changed = true
    }

    /// Changes what a named view or a subscription's own view shows.
    mutating func setOptions(_ params: SetViewOptions.Params, cause: Cause) throws -> Int {
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
    mutating func saveView(_ params: SaveView.Params, cause: Cause) throws -> (NamedViewSummary, Int) {
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
    mutating func removeView(_ name: String, cause: Cause) throws -> Int {
        let outcome = try viewModel.removeView(name)
        let durableAt = record(outcome.changes, write: outcome.write, applied: outcome.applied, cause: cause, removedView: name)
        viewsReplacedAt[name] = durableAt
        return durableAt
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

    mutating func viewID(for selection: ViewSelection) throws(RPCError) -> ViewID {
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
}
