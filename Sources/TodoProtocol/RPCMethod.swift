/// A method the daemon serves, with its name and the shapes of its parameters
/// and result. Daemon and client both use these types, so the two cannot
/// disagree on a field name.
public protocol RPCMethod: Sendable {
    associatedtype Params: Codable & Sendable
    associatedtype Result: Codable & Sendable
    static var name: String { get }
}

/// A notification the daemon pushes (a message with no id and no reply).
public protocol RPCNotification: Sendable {
    associatedtype Params: Codable & Sendable
    static var name: String { get }
}

/// Parameters of a method that takes none. `params` may be omitted or `{}`.
public struct NoParams: Codable, Hashable, Sendable {
    public init() {}
}
