import Foundation
import TodoModel
import TodoProtocol
import TodoViewModels

/// Turns one request line into the reply line, by calling the host.
///
/// It knows the protocol's methods and its error mapping, and nothing of
/// sockets, so it is exercised in-process by tests as well as by sessions.
///
/// Handling a request has two halves: `begin` carries it out (in the order
/// requests arrive) and encodes the reply; `PendingReply.finish` waits until
/// what the reply reports is durable. A session runs the halves in separate
/// tasks, so a client that sends many requests without waiting has them all
/// covered by one sync (group commit), and still gets replies in order.
public struct RequestRouter: Sendable {
    public let host: ViewModelHost
    /// The zone a due date-time without an offset is read in.
    public let timeZone: TimeZone
    public let server: ServerInfo

    /// What `server.status` reports besides the host's state.
    public struct ServerInfo: Sendable {
        public var version: String
        public var dataFile: String
        public var startedAt: Date
        public init(version: String, dataFile: String, startedAt: Date = Date()) {
            self.version = version
            self.dataFile = dataFile
            self.startedAt = startedAt
        }
    }

    public init(host: ViewModelHost, timeZone: TimeZone = .current, server: ServerInfo = ServerInfo(version: "todod", dataFile: "")) {
        self.host = host
        self.timeZone = timeZone
        self.server = server
    }

    /// The connection a request came in on: its id and where its lines go.
    public struct Connection: Sendable {
        public let id: Int
        public let sink: any ConnectionSink

        public init(sink: any ConnectionSink) {
            self.id = sink.connectionID
            self.sink = sink
        }
    }

    /// A reply whose content is decided and which may be sent once the
    /// revision it reports is durable.
    public struct PendingReply: Sendable {
        let id: RequestID?
        let line: Data?
        let durableAt: Int?
        let host: ViewModelHost

        init(id: RequestID?, line: Data?, durableAt: Int?, host: ViewModelHost) {
            self.id = id
            self.line = line
            self.durableAt = durableAt
            self.host = host
        }

        /// A line to send in turn that needs no waiting (a notice).
        public init(line: Data, host: ViewModelHost) {
            self.init(id: nil, line: line, durableAt: nil, host: host)
        }

        /// The line to send (nil for a notification), after waiting for durability.
        public func finish() async -> Data? {
            if let durableAt {
                do {
                    try await host.waitUntilDurable(durableAt)
                } catch {
                    return id.map { MessageEncoding.error(id: $0, RequestRouter.rpcError(error)) }
                }
            }
            return line
        }
    }

    /// Both halves at once: the reply to `line`, or `nil` when the line is a
    /// notification (no id), which JSON-RPC never answers.
    public func reply(to line: Data, from connection: Connection) async -> Data? {
        await begin(line, from: connection).finish()
    }

    /// Carries out the request on `line` and encodes its reply.
    public func begin(_ line: Data, from connection: Connection) async -> PendingReply {
        let request: IncomingRequest
        switch IncomingRequest.parse(line) {
        case .failure(let rejection):
            return PendingReply(id: nil, line: MessageEncoding.error(id: rejection.id, rejection.error), durableAt: nil, host: host)
        case .success(let parsed):
            request = parsed
        }
        do {
            let (result, durableAt) = try await dispatch(request, from: connection)
            return PendingReply(
                id: request.id, line: request.id.map { MessageEncoding.response(id: $0, result: result) },
                durableAt: durableAt, host: host)
        } catch {
            return PendingReply(
                id: request.id, line: request.id.map { MessageEncoding.error(id: $0, Self.rpcError(error)) }, durableAt: nil,
                host: host)
        }
    }

    private typealias Answer = (result: any Encodable & Sendable, durableAt: Int?)

    private func dispatch(_ request: IncomingRequest, from connection: Connection) async throws -> Answer {
        let cause = Cause(connection: connection.id, request: request.id)
        switch request.method {
        case AddTodo.name, EditTodo.name, SetTodoDone.name, SetTodoDue.name, RemoveTodo.name,
            ToggleAll.name, ClearCompleted.name, Undo.name, Redo.name:
            let command = try command(request.method, .request(request))
            let (outcome, durableAt) = try await host.perform(command, cause: cause)
            return (try Self.result(of: command, outcome), durableAt)
        case Transaction.name:
            let params = try request.decodeParams(Transaction.Params.self)
            return try await transaction(params, cause: cause)
        case GetListView.name:
            let (state, durableAt) = try await host.state(of: request.decodeParams(ViewSelection.self))
            return (state, durableAt)
        case SubscribeListView.name:
            let params = try request.decodeParams(SubscribeListView.Params.self)
            let (result, durableAt) = try await host.subscribe(params, sink: connection.sink)
            return (result, durableAt)
        case UnsubscribeListView.name:
            let params = try request.decodeParams(UnsubscribeListView.Params.self)
            try await host.unsubscribe(params.subscription, connection: connection.id)
            return (NoParams(), nil)
        case SetViewOptions.name:
            let durableAt = try await host.setOptions(request.decodeParams(SetViewOptions.Params.self), cause: cause)
            return (NoParams(), durableAt)
        case GetAddPrompt.name:
            _ = try request.decodeParams(NoParams.self)
            return (await host.addPrompt, nil)
        case DescribeProtocol.name:
            _ = try request.decodeParams(NoParams.self)
            return (ProtocolDescription.document, nil)
        case ServerStatus.name:
            _ = try request.decodeParams(NoParams.self)
            let uptime = Date().timeIntervalSince(server.startedAt)
            return (await host.status(dataFile: server.dataFile, uptime: uptime, server: server.version), nil)
        default:
            throw RPCError.methodNotFound(request.method)
        }
    }

    private func transaction(_ params: Transaction.Params, cause: Cause) async throws -> Answer {
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
        let (outcome, durableAt): (TransactionOutcome, Int)
        do {
            (outcome, durableAt) = try await host.perform(transaction: commands, cause: cause)
        } catch let refused as TransactionError {
            throw RPCError(refused.error).inTransaction(at: refused.index)
        }
        let entries = outcome.results.map { Transaction.Entry(id: $0.subject?.rawValue, item: $0.row, done: $0.description) }
        return (Transaction.Result(results: entries, done: outcome.description), durableAt)
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
            case .request(let request): try request.decodeParams(P.self)
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
