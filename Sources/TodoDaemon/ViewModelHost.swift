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
        let view: ViewID
        var revision: Int
        let outbox: Outbox
    }

    private let viewModel: TodoListViewModel
    private var subscribers: [Int: Subscriber] = [:]
    private var nextSubscriptionID = 1
    private var nextOwnViewID = 1
    private let didChange: @Sendable (_ itemCount: Int) -> Void
    private var timer: Task<Void, Never>?
    private var timerDeadline: Date?

    /// Loads the list from `store`. `didChange` is called after every change
    /// with the new item count (the daemon updates its systemd status with it).
    public init(
        store: any TodoStore,
        clock: TodoClock = TodoClock(),
        reminderAge: TimeInterval = 86_400,
        didChange: @escaping @Sendable (_ itemCount: Int) -> Void = { _ in }
    ) throws {
        viewModel = try TodoListViewModel(store: store, clock: clock, reminderAge: reminderAge)
        self.didChange = didChange
    }

    public var itemCount: Int { viewModel.itemCount }

    public var subscriptionCount: Int { subscribers.count }

    public var addPrompt: AddPromptViewModel { viewModel.addPrompt }

    /// Carries out a command and pushes each changed view to its subscribers.
    @discardableResult
    public func perform(_ command: TodoCommand) throws -> CommandOutcome {
        let outcome = try viewModel.perform(command)
        publish(outcome.changes)
        if let next = outcome.nextEvent { scheduleTick(at: next) }
        if !outcome.changes.isEmpty { didChange(viewModel.itemCount) }
        return outcome
    }

    // MARK: Time

    /// Starts the timer that fires reminders and re-words dates: it wakes at
    /// the instant the view model names and asks it to catch up.
    public func startClock() {
        tick()
    }

    public func stopClock() {
        timer?.cancel()
        timer = nil
        timerDeadline = nil
    }

    private func scheduleTick(at deadline: Date) {
        if let current = timerDeadline, current <= deadline { return }
        timer?.cancel()
        timerDeadline = deadline
        // Sleep at most an hour at a time, so a suspended machine or a changed
        // wall clock delays a reminder by an hour at worst.
        let delay = min(max(0, deadline.timeIntervalSinceNow), 3600)
        timer = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(Int(delay * 1000) + 1))
            guard !Task.isCancelled else { return }
            await self?.tick()
        }
    }

    private func tick() {
        timer = nil
        timerDeadline = nil
        do {
            let outcome = try viewModel.tick()
            publish(outcome.changes)
            if let next = outcome.nextEvent { scheduleTick(at: next) }
        } catch {
            // The reminders could not be stored, so they did not fire: try again soon.
            scheduleTick(at: Date().addingTimeInterval(60))
        }
    }

    /// A view's state, once. An own view lives only for this call.
    public func state(of selection: ViewSelection) throws(RPCError) -> TodoListState {
        let id = try viewID(for: selection)
        defer { viewModel.closeView(id) }
        return viewModel.openView(id, filter: selection.filter ?? .all, sort: selection.sort ?? .created)
    }

    /// Registers a subscription and returns the state it starts from. Both
    /// happen in one actor turn, so no change can fall between them.
    public func subscribe(connection: Int, to selection: ViewSelection, outbox: @escaping Outbox) throws(RPCError)
        -> SubscribeListView.Result
    {
        let view = try viewID(for: selection)
        let state = viewModel.openView(view, filter: selection.filter ?? .all, sort: selection.sort ?? .created)
        let id = nextSubscriptionID
        nextSubscriptionID += 1
        subscribers[id] = Subscriber(connection: connection, view: view, revision: 0, outbox: outbox)
        return SubscribeListView.Result(subscription: id, revision: 0, state: state)
    }

    /// Changes a shared view's or a subscription's own view's filter and sort.
    public func setOptions(_ params: SetViewOptions.Params, connection: Int) throws {
        let view: ViewID
        if let subscription = params.subscription {
            guard let subscriber = subscribers[subscription], subscriber.connection == connection else {
                throw RPCError.invalidParams("this connection has no subscription \(subscription)")
            }
            view = subscriber.view
        } else {
            view = .shared(params.view ?? "main")
            viewModel.openView(view)
        }
        if let change = try viewModel.setOptions(of: view, filter: params.filter, sort: params.sort) {
            publish([view: change])
        }
    }

    /// Drops every subscription of a connection that has gone, and its own views.
    public func disconnect(connection: Int) {
        for (id, subscriber) in subscribers where subscriber.connection == connection {
            subscribers[id] = nil
            viewModel.closeView(subscriber.view)
        }
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

    private func publish(_ changes: [ViewID: TodoListChange]) {
        guard !changes.isEmpty else { return }
        // Each view's change is put in wire form once; subscribers differ only
        // in their subscription id and revision.
        var wireForms: [ViewID: ListViewChanged.Params] = [:]
        for (id, subscriber) in subscribers {
            guard let change = changes[subscriber.view] else { continue }
            let revision = subscriber.revision + 1
            subscribers[id]!.revision = revision
            var params = wireForms[subscriber.view] ?? ListViewChanged.Params(subscription: 0, revision: 0, change: change)
            wireForms[subscriber.view] = params
            params.subscription = id
            params.revision = revision
            subscriber.outbox(MessageEncoding.notification(ListViewChanged.self, params: params))
        }
    }
}
