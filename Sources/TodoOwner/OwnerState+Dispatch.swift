import FoundationEssentials
import TodoProtocol
import TodoViewModels

/// Requests, carried out in the owner's turn by their methods' handlers
/// (`Methods/`), found through `OwnerMethods`.
extension OwnerState {
    /// The answer's result is the reply line, written where the result's
    /// type is known (nil for a notification, which gets none).
    mutating func dispatch(_ request: IncomingRequest, from connection: Int) throws -> Answer<Data?> {
        guard let method = OwnerMethods.byName[request.method] else { throw RPCError.methodNotFound(request.method) }
        // Kept for a shared list only: no other list plans a request again.
        if isShared { currentRequest = (connection, request) }
        defer { currentRequest = nil }
        return try call(method, request, cause: Cause(connection: connection, request: request.id, instance: instance))
    }

    /// Decodes the parameters straight from the request's bytes as `M`
    /// takes them, and has `M` answer.
    ///
    /// The reply is encoded here, by `M`: a result that writes itself
    /// (`JSONWritable`, an item's row) was found so when the method was
    /// declared, so there is no box for the result and no cast at run time.
    private mutating func call<M: OwnerMethod>(_ method: M.Type, _ request: IncomingRequest, cause: Cause) throws -> Answer<Data?> {
        let answer = try M.answer(request.params(for: M.self), cause: cause, owner: &self)
        let line = request.id.map { M.response(id: $0, result: answer.result) }
        return Answer(result: line, durableAt: answer.durableAt, subscription: answer.subscription)
    }
}
