import TodoProtocol

extension IncomingRequest {
    /// The request's parameters as `P`; positional ones are refused with the
    /// method's parameter names, taken from its declaration.
    func params<P: Decodable>(_ type: P.Type) throws(RPCError) -> P {
        try decodeParams(P.self, parameterNames: ProtocolMethods.all.first { $0.name == method }?.parameterNames ?? [])
    }
}
