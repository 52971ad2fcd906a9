import Foundation
import TodoModel
import TodoProtocol

/// Turns one request line into the reply line, by calling the host.
///
/// It knows the protocol's methods and its error mapping, and nothing of
/// sockets, so it is exercised in-process by tests as well as by sessions.
public struct RequestRouter: Sendable {
    public let host: ViewModelHost

    public init(host: ViewModelHost) {
        self.host = host
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
            return ItemResult(item: try await host.add(title: params.title))
        case SetTodoDone.name:
            let params = try request.decodeParams(SetTodoDone.Params.self)
            return ItemResult(item: try await host.setDone(id: TodoID(params.id), done: params.done))
        case RemoveTodo.name:
            let params = try request.decodeParams(RemoveTodo.Params.self)
            try await host.remove(id: TodoID(params.id))
            return RemoveTodo.Result(id: params.id)
        case GetListView.name:
            _ = try request.decodeParams(GetListView.Params.self)
            return await host.listState
        case SubscribeListView.name:
            _ = try request.decodeParams(SubscribeListView.Params.self)
            return await host.subscribe(connection: connection.id, outbox: connection.outbox)
        default:
            throw RPCError.methodNotFound(request.method)
        }
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
