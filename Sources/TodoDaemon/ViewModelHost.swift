import Foundation
import TodoModel
import TodoProtocol
import TodoViewModels

/// The one owner of the to-do state: every command and every subscription
/// goes through this actor, one at a time.
///
/// A command is stored (durably) by the view model before this actor hands
/// events to subscribers and returns to the caller, so a reply always follows
/// the commit. Events are handed to each connection's outbox without waiting:
/// a client that reads slowly cannot hold up this actor or other clients.
public actor ViewModelHost {
    /// Receives encoded lines for one connection, in order; never blocks.
    public typealias Outbox = @Sendable (Data) -> Void

    private struct Subscriber {
        let connection: Int
        let outbox: Outbox
    }

    private let viewModel: TodoListViewModel
    private var revision = 0
    private var subscribers: [Int: Subscriber] = [:]
    private var nextSubscriptionID = 1
    private let didChange: @Sendable (_ itemCount: Int) -> Void

    /// Loads the list from `store`. `didChange` is called after every change
    /// with the new item count (the daemon updates its systemd status with it).
    public init(
        store: any TodoStore,
        now: @escaping @Sendable () -> Date = Date.init,
        didChange: @escaping @Sendable (_ itemCount: Int) -> Void = { _ in }
    ) throws {
        viewModel = try TodoListViewModel(store: store, now: now)
        self.didChange = didChange
    }

    public var itemCount: Int { viewModel.itemCount }

    public var listState: TodoListState { viewModel.state }

    public var subscriptionCount: Int { subscribers.count }

    public func add(title: String) throws -> TodoRow {
        try changing { try viewModel.add(title: title) }
    }

    public func setDone(id: TodoID, done: Bool) throws -> TodoRow {
        try changing { try viewModel.setDone(id: id, done: done) }
    }

    public func remove(id: TodoID) throws {
        try changing { try viewModel.remove(id: id) }
    }

    /// Registers a subscription and returns the state it starts from. Both
    /// happen in one actor turn, so no change can fall between them.
    public func subscribe(connection: Int, outbox: @escaping Outbox) -> SubscribeListView.Result {
        let id = nextSubscriptionID
        nextSubscriptionID += 1
        subscribers[id] = Subscriber(connection: connection, outbox: outbox)
        return SubscribeListView.Result(subscription: id, revision: revision, state: viewModel.state)
    }

    /// Drops every subscription of a connection that has gone.
    public func disconnect(connection: Int) {
        subscribers = subscribers.filter { $0.value.connection != connection }
    }

    /// Runs a command; if it changed the list, bumps the revision and pushes
    /// the new state to every subscriber before returning.
    private func changing<Result>(_ command: () throws -> Result) throws -> Result {
        let versionBefore = viewModel.version
        let result = try command()
        if viewModel.version != versionBefore {
            publish()
        }
        return result
    }

    private func publish() {
        revision += 1
        let state = viewModel.state
        for (id, subscriber) in subscribers {
            let params = ListViewChanged.Params(subscription: id, revision: revision, state: state)
            subscriber.outbox(MessageEncoding.notification(ListViewChanged.self, params: params))
        }
        didChange(viewModel.itemCount)
    }
}
