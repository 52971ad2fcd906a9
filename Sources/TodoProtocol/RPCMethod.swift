import CanonicalJSON
import FoundationEssentials

/// A method the daemon serves, declared whole in one place: its name, the
/// shapes of its parameters and result (as Swift types, so daemon and client
/// cannot disagree on a field name, and as JSON Schemas, for clients in
/// other languages), the errors it can answer with, and a doc line.
///
/// `ProtocolMethods.all` lists every method once; `rpc.describe`,
/// `Protocol/schema/todod.schema.json`, PROTOCOL.md's method table, the
/// daemon's dispatch and `todoctl call`'s completion are derived from it.
public protocol RPCMethod: Sendable {
    associatedtype Params: Codable & Sendable
    associatedtype Result: Codable & Sendable
    static var name: String { get }
    /// One line for people: `summary` in `rpc.describe`, and PROTOCOL.md's method table.
    static var summary: String { get }
    /// The JSON Schema of `Params` (`$defs` `NAME.params`), built from `JSONSchema`'s blocks.
    static var paramsSchema: JSONValue { get }
    /// The JSON Schema of `Result` (`$defs` `NAME.result`).
    static var resultSchema: JSONValue { get }
    /// The `data.name` of every error a call can be answered with, besides
    /// those of any line (`protocol.parseError`, `protocol.methodNotFound`…).
    /// Each must be one of `ProtocolDescription.errors` (a test checks).
    static var errors: [String] { get }
    /// Whether `params` may be left out of a request. By default: when the
    /// parameters schema requires nothing.
    static var paramsMayBeOmitted: Bool { get }
    /// Whether the method may be one of a `transaction`'s commands. By default not.
    static var isTransactable: Bool { get }
    /// The reply line to request `id` answered with `result`. By default
    /// through `Encodable`; a result that writes its own JSON
    /// (`JSONWritable`) writes it, chosen when the method is declared.
    static func response(id: RequestID, result: Result) -> Data
}

extension RPCMethod {
    public static var isTransactable: Bool { false }
    public static var paramsMayBeOmitted: Bool { JSONSchema.required(by: paramsSchema).isEmpty }

    /// The names of the parameters, from the parameters schema, in
    /// alphabetical order: the error that answers positional parameters
    /// tells the client what to send instead.
    public static var parameterNames: [String] { JSONSchema.propertyNames(of: paramsSchema) }

    public static func response(id: RequestID, result: Result) -> Data {
        MessageEncoding.response(id: id, result: result)
    }
}

extension RPCMethod where Result: JSONWritable {
    public static func response(id: RequestID, result: Result) -> Data {
        MessageEncoding.response(id: id, writing: result)
    }
}

extension RPCMethod where Params == NoParams {
    public static var paramsSchema: JSONValue { JSONSchema.empty }
}

extension RPCMethod where Result == NoParams {
    public static var resultSchema: JSONValue { JSONSchema.empty }
}

/// A notification the daemon pushes (a message with no id and no reply).
public protocol RPCNotification: Sendable {
    associatedtype Params: Codable & Sendable
    static var name: String { get }
}

/// Parameters of a method that takes none (`params` may be omitted or `{}`),
/// and the result of one that has nothing to say (`{}`).
public struct NoParams: Codable, Hashable, Sendable {
    public init() {}
}
