import TodoProtocol
import TodoViewModels

/// Requests, carried out in the owner's turn by their methods' handlers
/// (`Methods/`), found through `OwnerMethods`.
extension OwnerState {
    mutating func dispatch(_ request: IncomingRequest, from connection: Int) throws -> Answer<any Encodable & Sendable> {
        guard let method = OwnerMethods.byName[request.method] else { throw RPCError.methodNotFound(request.method) }
        currentRequest = (connection, request)
        defer { currentRequest = nil }
        return try call(method, request, cause: Cause(connection: connection, request: request.id, instance: instance))
    }

    /// Decodes the parameters straight from the request's bytes as `M`
    /// takes them, and has `M` answer.
    private mutating func call<M: OwnerMethod>(_ method: M.Type, _ request: IncomingRequest, cause: Cause) throws
        -> Answer<any Encodable & Sendable>
    {
        let answer = try M.answer(request.params(for: M.self), cause: cause, owner: &self)
        return Answer(result: answer.result, durableAt: answer.durableAt, subscription: answer.subscription)
    }
}
