import TodoProtocol

/// A method as the list owner carries it out. Every method of
/// `ProtocolMethods.all` conforms, here in TodoDaemon (a test checks); the
/// owner finds the handler by name in `OwnerMethods` and hands it the
/// parameters decoded once, as the method declares them.
protocol OwnerMethod: RPCMethod {
    /// Carries out one call, in the owner's turn. `cause` names the
    /// connection and the request: the events the call sends carry it, and
    /// subscriptions belong to its connection.
    static func answer(_ params: Params, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<Result>
}

extension OwnerState {
    /// What a call answers with.
    struct Answer<Result> {
        var result: Result
        /// The revision the result reports: the reply waits until it is durable.
        var durableAt: Int
        /// The subscription the call made, ended should the reply fail.
        var subscription: Int? = nil
    }
}
