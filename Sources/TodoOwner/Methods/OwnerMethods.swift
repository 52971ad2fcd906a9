import TodoProtocol

/// The daemon's handlers, by method name, taken once from the registry
/// (`ProtocolMethods.all`): dispatching a request is one dictionary lookup,
/// and a method added to the registry is served as soon as it conforms to
/// `OwnerMethod`.
enum OwnerMethods {
    static let byName: [String: any OwnerMethod.Type] = Dictionary(
        ProtocolMethods.all.compactMap { method in (method as? any OwnerMethod.Type).map { (method.name, $0) } },
        uniquingKeysWith: { first, _ in first })

    /// The methods a `transaction` may hold (those declared `isTransactable`), by name.
    static let transactable: [String: any CommandMethod.Type] = Dictionary(
        ProtocolMethods.transactable.compactMap { method in (method as? any CommandMethod.Type).map { (method.name, $0) } },
        uniquingKeysWith: { first, _ in first })

    /// Registered methods without a handler: none, or a test fails (such a
    /// method would be described by `rpc.describe` and answered with -32601).
    static var unhandled: [String] {
        ProtocolMethods.all.filter { byName[$0.name] == nil }.map { $0.name }
    }

    /// Transactable methods that are not commands, which a transaction could not carry out: none, or a test fails.
    static var transactableWithoutCommand: [String] {
        ProtocolMethods.transactable.filter { transactable[$0.name] == nil }.map { $0.name }
    }
}
