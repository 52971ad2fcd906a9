import Foundation
import TodoModel
import TodoProtocol
import TodoViewModels

/// What each method does, carried out in the owner's turn.
extension ListOwner {
    struct Answer {
        var result: any Encodable & Sendable
        /// The revision the result reports: the reply waits until it is durable.
        var durableAt: Int
        var subscription: Int? = nil
    }

    func dispatch(_ request: IncomingRequest, from connection: ConnectionState) throws -> Answer {
        let cause = Cause(connection: connection.id, request: request.id)
        switch request.method {
        case AddTodo.name, EditTodo.name, SetTodoDone.name, SetTodoDue.name, RemoveTodo.name,
            ToggleAll.name, ClearCompleted.name, Undo.name, Redo.name:
            let command = try command(request.method, .request(request))
            let outcome = try viewModel.perform(command)
            if let next = outcome.nextEvent { scheduleTick(at: next) }
            let durableAt = record(outcome.changes, write: outcome.write, applied: outcome.applied, cause: cause)
            return Answer(result: try Self.result(of: command, outcome), durableAt: durableAt)
        case Transaction.name:
            return try transaction(request.params(Transaction.Params.self), cause: cause)
        case GetListView.name:
            let selection = try request.params(ViewSelection.self)
            let id = try viewID(for: selection)
            defer { viewModel.closeView(id) }
            let state = viewModel.openView(id, filter: selection.filter ?? .all, sort: selection.sort ?? .created)
            return Answer(result: state, durableAt: revision)
        case SubscribeListView.name:
            let (result, durableAt) = try subscribe(request.params(SubscribeListView.Params.self), connection: connection.id)
            return Answer(result: result, durableAt: durableAt, subscription: result.subscription)
        case UnsubscribeListView.name:
            let params = try request.params(UnsubscribeListView.Params.self)
            try unsubscribe(params.subscription, connection: connection.id)
            return Answer(result: NoParams(), durableAt: 0)
        case SetViewOptions.name:
            return Answer(result: NoParams(), durableAt: try setOptions(request.params(SetViewOptions.Params.self), cause: cause))
        case GetAddPrompt.name:
            _ = try request.params(NoParams.self)
            return Answer(result: viewModel.addPrompt, durableAt: 0)
        case DescribeProtocol.name:
            _ = try request.params(NoParams.self)
            return Answer(result: ProtocolDescription.document, durableAt: 0)
        case ServerStatus.name:
            _ = try request.params(NoParams.self)
            return Answer(result: status(), durableAt: 0)
        default:
            throw RPCError.methodNotFound(request.method)
        }
    }

    func status() -> ServerStatus.Result {
        ServerStatus.Result(
            server: server.version, protocol: ServerHello.protocolVersion, epoch: epoch, revision: publishedRevision,
            items: viewModel.itemCount, connections: connections.count, subscriptions: subscriptions.count,
            uptimeSeconds: Int(Date().timeIntervalSince(server.startedAt)), dataFile: server.dataFile)
    }

    private func transaction(_ params: Transaction.Params, cause: Cause) throws -> Answer {
        guard !params.commands.isEmpty, params.commands.count <= Transaction.maximumCommands else {
            throw RPCError.invalidParams("\"commands\" must hold 1 to \(Transaction.maximumCommands) commands")
        }
        var commands: [TodoCommand] = []
        for (index, entry) in params.commands.enumerated() {
            do {
                guard Self.transactionMethods.contains(entry.method) else {
                    if entry.method == Undo.name || entry.method == Redo.name { throw RPCError(TodoError.undoInTransaction) }
                    throw RPCError.invalidParams("\"\(entry.method)\" cannot be part of a transaction")
                }
                commands.append(try command(entry.method, .value(entry.params)))
            } catch {
                throw Self.rpcError(error).inTransaction(at: index)
            }
        }
        let outcome: TransactionOutcome
        do {
            outcome = try viewModel.perform(transaction: commands)
        } catch {
            throw RPCError(error.error).inTransaction(at: error.index)
        }
        if let next = outcome.nextEvent { scheduleTick(at: next) }
        let durableAt = record(outcome.changes, write: outcome.write, applied: outcome.applied, cause: cause)
        let entries = outcome.results.map { Transaction.Entry(id: $0.subject?.rawValue, item: $0.row, done: $0.description) }
        return Answer(result: Transaction.Result(results: entries, done: outcome.description), durableAt: durableAt)
    }

    private static let transactionMethods: Set<String> = [
        AddTodo.name, EditTodo.name, SetTodoDone.name, SetTodoDue.name, RemoveTodo.name, ToggleAll.name, ClearCompleted.name,
    ]

    /// Where a command's parameters come from: a request's own line, or one
    /// entry of a transaction.
    private enum ParamsSource {
        case request(IncomingRequest)
        case value(JSONValue?)

        func decode<P: Decodable>(as type: P.Type) throws(RPCError) -> P {
            switch self {
            case .request(let request): try request.params(P.self)
            case .value(let params): try IncomingRequest.decode(params, as: P.self)
            }
        }
    }

    /// The command a method call stands for, its parameters checked.
    private func command(_ method: String, _ params: ParamsSource) throws -> TodoCommand {
        switch method {
        case AddTodo.name:
            let params = try params.decode(as: AddTodo.Params.self)
            return .add(title: params.title, due: try due(params.due))
        case EditTodo.name:
            let params = try params.decode(as: EditTodo.Params.self)
            return .edit(TodoID(params.id), title: params.title)
        case SetTodoDone.name:
            let params = try params.decode(as: SetTodoDone.Params.self)
            return .setDone(TodoID(params.id), params.done)
        case SetTodoDue.name:
            let params = try params.decode(as: SetTodoDue.Params.self)
            return .setDue(TodoID(params.id), try due(params.due))
        case RemoveTodo.name:
            return .delete(TodoID(try params.decode(as: RemoveTodo.Params.self).id))
        default:
            _ = try params.decode(as: NoParams.self)
            switch method {
            case ToggleAll.name: return .toggleAll
            case ClearCompleted.name: return .clearCompleted
            case Undo.name: return .undo
            default: return .redo
            }
        }
    }

    private static func result(of command: TodoCommand, _ outcome: CommandOutcome) throws -> any Encodable & Sendable {
        switch command {
        case .add, .edit, .setDone, .setDue:
            guard let row = outcome.row else { throw RPCError.internalError("the command returned no item") }
            return ItemResult(item: row)
        case .delete(let id):
            return RemoveTodo.Result(id: id.rawValue)
        case .toggleAll, .clearCompleted, .undo, .redo:
            return CommandResult(done: outcome.description)
        }
    }

    private func due(_ text: String?) throws -> DueDate? {
        guard let text else { return nil }
        guard let due = DueDateText.parse(text, timeZone: server.timeZone) else { throw RPCError.invalidDueDate(text) }
        return due
    }
}
