extension IncomingRequest {
    /// The request's parameters as method `M` takes them, decoded once from
    /// their bytes; positional ones are refused with the names `M` declares.
    public func params<M: RPCMethod>(for method: M.Type) throws(RPCError) -> M.Params {
        try decodeParams(M.Params.self, parameterNames: M.parameterNames)
    }
}
