import Foundation
import TodoModel
import TodoProtocol
import TodoViewModels

/// Turns one request line into the reply line, by calling the host.
///
/// It knows the protocol's methods and its error mapping, and nothing of
/// sockets, so it is exercised in-process by tests as well as by sessions.
public struct RequestRouter: Sendable {
    public let host: ViewModelHost
    /// The zone a due date-time without an offset is read in.
    public let timeZone: TimeZone

    public init(host: ViewModelHost, timeZone: TimeZone = .current) {
        self.host = host
        self.timeZone = timeZone
    }

    /// The connection a request came in on: its id (for subscriptions) and
    /// the outbox that pushed events go to.
    public struct Connection: Sendable {
        public let id: Int
        public let outbox: ViewModelHost.Outbox

        public init(id: Int, outbox: @escaping ViewModelHost.Outbox) {
            self.id = id
            self.outbox = outbox
        }
    }

    /// The reply to `line`, or `nil` when the line is a notification (no id),
    /// which JSON-RPC never answers.
    public func reply(to line: Data, from connection: Connection) async -> Data? {
        let request: IncomingRequest
        switch IncomingRequest.parse(line) {
        case .failure(let rejection):
            return MessageEncoding.error(id: rejection.id, rejection.error)
        case .success(let parsed):
            request = parsed
        }
        do {
            let result = try await dispatch(request, from: connection)
            return request.id.map { MessageEncoding.response(id: $0, result: result) }
        } catch {
            return request.id.map { MessageEncoding.error(id: $0, Self.rpcError(error)) }
        }
    }

    private func dispatch(_ request: IncomingRequest, from connection: Connection) async throws -> any Encodable & Sendable {
        switch request.method {
        case AddTodo.name:
            let params = try request.decodeParams(AddTodo.Params.self)
            return try await item(.add(title: params.title, due: try due(params.due)))
        case EditTodo.name:
            let params = try request.decodeParams(EditTodo.Params.self)
            return try await item(.edit(TodoID(params.id), title: params.title))
        case SetTodoDone.name:
            let params = try request.decodeParams(SetTodoDone.Params.self)
            return try await item(.setDone(TodoID(params.id), params.done))
        case SetTodoDue.name:
            let params = try request.decodeParams(SetTodoDue.Params.self)
            return try await item(.setDue(TodoID(params.id), try due(params.due)))
        case RemoveTodo.name:
            let params = try request.decodeParams(RemoveTodo.Params.self)
            try await host.perform(.delete(TodoID(params.id)))
            return RemoveTodo.Result(id: params.id)
        case ToggleAll.name, ClearCompleted.name, Undo.name, Redo.name:
            _ = try request.decodeParams(NoParams.self)
            let command: TodoCommand =
                switch request.method {
                case ToggleAll.name: .toggleAll
                case ClearCompleted.name: .clearCompleted
                case Undo.name: .undo
                default: .redo
                }
            return CommandResult(done: try await host.perform(command).description)
        case GetListView.name:
            return try await host.state(of: request.decodeParams(ViewSelection.self))
        case SubscribeListView.name:
            let selection = try request.decodeParams(ViewSelection.self)
            return try await host.subscribe(connection: connection.id, to: selection, outbox: connection.outbox)
        case SetViewOptions.name:
            try await host.setOptions(request.decodeParams(SetViewOptions.Params.self), connection: connection.id)
            return NoParams()
        case GetAddPrompt.name:
            _ = try request.decodeParams(NoParams.self)
            return await host.addPrompt
        default:
            throw RPCError.methodNotFound(request.method)
        }
    }

    private func item(_ command: TodoCommand) async throws -> ItemResult {
        guard let row = try await host.perform(command).row else {
            throw RPCError.internalError("the command returned no item")
        }
        return ItemResult(item: row)
    }

    private func due(_ text: String?) throws -> DueDate? {
        guard let text else { return nil }
        guard let due = DueDateText.parse(text, timeZone: timeZone) else { throw RPCError.invalidDueDate(text) }
        return due
    }

    /// Refused commands keep their meaning; anything else the store threw
    /// means the change was not made.
    static func rpcError(_ error: any Error) -> RPCError {
        switch error {
        case let error as RPCError: error
        case let error as TodoError: RPCError(error)
        default: .storageFailure(String(describing: error))
        }
    }
}
