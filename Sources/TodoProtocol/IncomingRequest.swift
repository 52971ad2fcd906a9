import Foundation

/// A request (or client notification) read from one line, envelope checked,
/// parameters not yet decoded: their type depends on the method.
public struct IncomingRequest: Sendable {
    /// `nil` for a notification, which gets no reply.
    public let id: RequestID?
    public let method: String
    private let params: JSONValue?
    /// The line itself: typed parameters are decoded straight from it.
    private let line: Data

    /// A line that could not be read as a request, with what to answer.
    public struct Rejection: Error, Sendable {
        /// The request's id when it could be read; the reply carries `null` otherwise.
        public let id: RequestID?
        public let error: RPCError
    }

    /// No request needs more; a deeper line is refused before it is parsed.
    public static let maximumDepth = 32

    /// Reads the envelope of one line (without its `\n`).
    ///
    /// A line that is not JSON is a parse error; JSON that is not a JSON-RPC
    /// 2.0 request object is an invalid request. Either way the connection
    /// stays usable: the caller answers and reads the next line.
    public static func parse(_ line: Data) -> Result<IncomingRequest, Rejection> {
        guard JSONValue.nestingDepth(of: line, stoppingAt: maximumDepth) <= maximumDepth else {
            return .failure(Rejection(id: nil, error: .parseError("arrays and objects are nested more than \(maximumDepth) levels deep")))
        }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: line)
        } catch {
            return .failure(Rejection(id: nil, error: .parseError(DecodingErrorText.describe(error))))
        }
        guard case .object(let object) = value else {
            return .failure(Rejection(id: nil, error: .invalidRequest("expected an object, got \(value.typeName)")))
        }
        var id: RequestID?
        switch object["id"] {
        case nil, .null?: id = nil
        case .integer(let number)?: id = .number(number)
        case .string(let string)?: id = .string(string)
        case let other?:
            return .failure(Rejection(id: nil, error: .invalidRequest("\"id\" must be a string or an integer, got \(other.typeName)")))
        }
        guard object["jsonrpc"] == .string("2.0") else {
            return .failure(Rejection(id: id, error: .invalidRequest("\"jsonrpc\" must be \"2.0\"")))
        }
        guard case .string(let method)? = object["method"] else {
            return .failure(Rejection(id: id, error: .invalidRequest("\"method\" must be a string")))
        }
        let params = object["params"]
        switch params {
        case nil, .object?: break
        case let other?:
            return .failure(Rejection(id: id, error: .invalidRequest("\"params\" must be an object, got \(other.typeName)")))
        }
        return .success(IncomingRequest(id: id, method: method, params: params, line: line))
    }

    /// Decodes the parameters as `P`. A missing `params` reads as `{}`.
    ///
    /// Decoded from the line in one pass (the parsed tree is only used to
    /// check the envelope): going through the tree would mean encoding it and
    /// decoding that again, for every request.
    public func decodeParams<P: Decodable>(_ type: P.Type) throws(RPCError) -> P {
        if let tree = (params ?? .object([:])) as? P { return tree }  // P is JSONValue
        guard params != nil else { return try Self.decode(nil, as: P.self) }
        do {
            return try JSONDecoder().decode(ParamsMember<P>.self, from: line).params
        } catch {
            // Paths in messages are relative to "params", as for `decode`.
            throw .invalidParams(DecodingErrorText.describe(error, droppingFirst: 1))
        }
    }

    /// The `params` member of a request object, alone.
    private struct ParamsMember<P: Decodable>: Decodable {
        var params: P
    }

    /// Decodes a parameters value (nil reads as `{}`) as `P`.
    public static func decode<P: Decodable>(_ params: JSONValue?, as type: P.Type) throws(RPCError) -> P {
        if case let value? = params, case .object = value {} else if params != nil {
            throw .invalidParams("\"params\" must be an object, got \(params!.typeName)")
        }
        do {
            let data = try JSONEncoder().encode(params ?? .object([:]))
            return try JSONDecoder().decode(P.self, from: data)
        } catch {
            throw .invalidParams(DecodingErrorText.describe(error))
        }
    }
}
