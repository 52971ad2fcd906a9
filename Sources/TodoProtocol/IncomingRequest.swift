import CanonicalJSON
import FoundationEssentials
import Glibc
import TodoViewState

/// A request (or client notification) read from a line, envelope checked,
/// parameters kept as their bytes: their type depends on the method, and
/// they are decoded once, straight from those bytes, by `decodeParams`.
public struct IncomingRequest: Sendable {
    /// `nil` for a notification (no `id` member), which gets no reply.
    /// `"id": null` is a request, answered with `"id": null`.
    public let id: RequestID?
    public let method: String
    private let params: Params

    /// The `params` member as it was sent.
    private enum Params: Sendable {
        case absent
        /// An object: parameters by name, the only kind todod takes.
        case named(Data)
        /// An array: parameters by position.
        case positional(Data)
    }

    /// A notification is never answered, whatever becomes of it (JSON-RPC 2.0, 4.1).
    public var isNotification: Bool { id == nil }

    /// The `params` member's JSON text as sent; nil when it was left out.
    public var paramsJSON: Data? {
        switch params {
        case .absent: nil
        case .named(let json), .positional(let json): json
        }
    }

    /// A request object that could not be read as a request, with what to answer.
    /// Unlike a request, a rejection is always answered (with `"id": null`
    /// when the id could not be read, as JSON-RPC 2.0 section 5 says).
    public struct Rejection: Error, Sendable {
        /// The request's id when it could be read; the reply carries `null` otherwise.
        public let id: RequestID?
        public let error: RPCError

        public init(id: RequestID?, error: RPCError) {
            self.id = id
            self.error = error
        }
    }

    /// No request needs more; the scanner refuses a deeper line whatever its encoding.
    public static let maximumDepth = JSONScanner.maximumDepth

    /// Reads one line (without its `\n`) holding one request object.
    ///
    /// A line that is not JSON is a parse error; JSON that is not a JSON-RPC
    /// 2.0 request object is an invalid request, and so is a batch (an
    /// array): read lines with `IncomingLine.parse` to take batches. Either
    /// way the connection stays usable: the caller answers and reads the next line.
    public static func parse(_ line: Data) -> Result<IncomingRequest, Rejection> {
        switch IncomingLine.parse(line, batches: false) {
        case .request(let result): result
        case .blank: .failure(Rejection(id: nil, error: .parseError(JSONSyntaxError(offset: line.count, "the line holds no JSON value"))))
        case .batch: preconditionFailure("batches are not read when they are not asked for")
        }
    }

    /// Reads the envelope of a request object from its members, which the
    /// scanner has checked (no duplicates among them) and found in `bytes`.
    static func read(_ members: some Sequence<JSONScanner.Member>, in bytes: UnsafeRawBufferPointer) -> Result<IncomingRequest, Rejection> {
        var idMember, versionMember, methodMember, paramsMember: JSONScanner.Member?
        for member in members {
            guard let key = member.key else { continue }  // members of an object always have one
            switch Self.envelopeKey(key, in: bytes) {
            case .id: idMember = member
            case .jsonrpc: versionMember = member
            case .method: methodMember = member
            case .params: paramsMember = member
            case nil: break  // other members mean nothing to JSON-RPC 2.0
            }
        }
        func text(_ member: JSONScanner.Member) -> String {
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[member.value]), as: UTF8.self)
        }
        func string(_ member: JSONScanner.Member) -> String {
            let content = member.value.lowerBound + 1..<member.value.upperBound - 1
            let hasEscapes = bytes[content].contains(UInt8(ascii: "\\"))
            return JSONStringText.decode(bytes, content, hasEscapes: hasEscapes)
        }

        var id: RequestID?
        if let member = idMember {
            switch member.kind {
            case .number:
                let json = text(member)
                id = RequestID(value: Int64(json).map(RequestID.Value.number) ?? .otherNumber(json), json: json)
            case .string: id = RequestID(value: .string(string(member)), json: text(member))
            case .null: id = .null
            case let kind:
                return .failure(Rejection(id: nil, error: .invalidRequest("\"id\" must be a string, a number or null, got \(kind.typeName)")))
            }
        }
        guard let versionMember, versionMember.kind == .string, string(versionMember) == "2.0" else {
            return .failure(Rejection(id: id, error: .invalidRequest("\"jsonrpc\" must be \"2.0\"")))
        }
        guard let methodMember, methodMember.kind == .string else {
            return .failure(Rejection(id: id, error: .invalidRequest("\"method\" must be a string")))
        }
        func copy(_ member: JSONScanner.Member) -> Data {
            // A plain copy; Data(bytes[range]) takes Foundation's generic path, ten times the work.
            Data(bytes: bytes.baseAddress! + member.value.lowerBound, count: member.value.count)
        }
        let params: Params
        switch paramsMember {
        case nil: params = .absent
        case let member? where member.kind == .object: params = .named(copy(member))
        case let member? where member.kind == .array: params = .positional(copy(member))
        case let member?:
            return .failure(
                Rejection(id: id, error: .invalidRequest("\"params\" must be an object (or left out), got \(member.kind.typeName)")))
        }
        return .success(IncomingRequest(id: id, method: string(methodMember), params: params))
    }

    private enum EnvelopeKey { case id, jsonrpc, method, params }

    private static func envelopeKey(_ key: JSONStringSpan, in bytes: UnsafeRawBufferPointer) -> EnvelopeKey? {
        let name: String
        if key.hasEscapes {
            name = JSONStringText.decode(bytes, key.content, hasEscapes: true)
        } else {
            // The common case, without making a String.
            func `is`(_ literal: StaticString) -> Bool {
                literal.utf8CodeUnitCount == key.content.count
                    && memcmp(bytes.baseAddress! + key.content.lowerBound, literal.utf8Start, key.content.count) == 0
            }
            if `is`("id") { return .id }
            if `is`("method") { return .method }
            if `is`("params") { return .params }
            if `is`("jsonrpc") { return .jsonrpc }
            return nil
        }
        switch name {
        case "id": return .id
        case "jsonrpc": return .jsonrpc
        case "method": return .method
        case "params": return .params
        default: return nil
        }
    }

    private static let emptyObject = Data("{}".utf8)

    /// Decodes the parameters as `P`, straight from their bytes. A missing
    /// `params` reads as `{}`.
    ///
    /// Parameters by position (an array) are refused with -32602: every
    /// method's parameters have names, and guessing which is which would be
    /// a silent mistake. `parameterNames` (the method's, in order) goes into
    /// the message, so the client learns what to send instead; it is only
    /// worked out for that message. An empty array gives no parameters
    /// either way, so it reads as `{}`, as some client libraries send it for "none".
    public func decodeParams<P: Decodable>(_ type: P.Type, parameterNames: @autoclosure () -> [String] = []) throws(RPCError)
        -> P
    {
        let json: Data
        switch params {
        case .absent: json = Self.emptyObject
        case .named(let named): json = named
        case .positional(let positional):
            guard positional.dropFirst().dropLast().allSatisfy(JSONScanner.isWhitespace) else {
                throw .positionalParams(method: method, parameterNames: parameterNames())
            }
            json = Self.emptyObject
        }
        return try Self.decode(json, as: P.self)
    }

    /// Decodes a parameters value (nil reads as `{}`) as `P`: a transaction's
    /// command, whose params arrive as part of the transaction's.
    public static func decode<P: Decodable>(_ params: JSONValue?, as type: P.Type) throws(RPCError) -> P {
        if case let value? = params, case .object = value {} else if params != nil {
            throw .invalidParams("\"params\" must be an object, got \(params!.typeName)")
        }
        if let value = params as? P { return value }  // P is JSONValue
        if let value = try? JSONValueDecoder.decode(P.self, from: params ?? .object([:]), asJSONDecoderReads: true) {
            return value
        }
        // Not as P: decoded again from text, for the error's wording.
        let json: Data
        do {
            json = try JSONEncoder().encode(params ?? .object([:]))
        } catch {
            throw .invalidParams(DecodingErrorText.describe(error))
        }
        return try decode(json, as: P.self)
    }

    private static let decoder = JSONDecoder()

    /// One decode of checked JSON text, its failure worded to name the parameter.
    ///
    /// The text is read into a `JSONValue` and decoded from that
    /// (`JSONValueDecoder`, as `JSONDecoder` reads: an integer parameter
    /// takes `1.0`, a nested `JSONValue` holds `1.0` as the integer 1): a
    /// fifth of the instructions `JSONDecoder` spends on a small object.
    /// Parameters that do not decode are decoded again by `JSONDecoder`, so
    /// every refusal is worded as it always was.
    static func decode<P: Decodable>(_ json: Data, as type: P.Type) throws(RPCError) -> P {
        if P.self == JSONValue.self {
            // Built by the scanner: stricter and quicker than JSONValue's Decodable.
            do {
                return try JSONValue(parsing: json) as! P
            } catch {
                throw .invalidParams(error.description)
            }
        }
        if let tree = try? JSONValue(checked: json), let value = try? JSONValueDecoder.decode(P.self, from: tree, asJSONDecoderReads: true) {
            return value
        }
        do {
            return try decoder.decode(P.self, from: json)
        } catch {
            // Sort text is a parameter's value, but one with a grammar of its
            // own: PROTOCOL.md promises todo.invalidSort for it, as query text
            // that cannot be read is todo.invalidQuery.
            if case .dataCorrupted(let context)? = error as? DecodingError, let sort = context.underlyingError as? ListSortError {
                throw .invalidSort(sort.message)
            }
            if case .dataCorrupted(let context)? = error as? DecodingError, context.codingPath.isEmpty,
                let unfit = UnfitNumber.find(decoding: P.self, in: json, with: decoder)
            {
                throw .invalidParams(unfit.description)
            }
            throw .invalidParams(DecodingErrorText.describe(error))
        }
    }
}

extension RPCError {
    /// -32602 for parameters by position, naming the method's parameters
    /// when the caller knows them: "todo.add takes named parameters (an
    /// object), not positional ones (an array); its parameters are: title, due".
    public static func positionalParams(method: String, parameterNames: [String]) -> RPCError {
        let names = parameterNames.isEmpty ? "" : "; its parameters are: \(parameterNames.joined(separator: ", "))"
        return .invalidParams("\(method) takes named parameters (an object), not positional ones (an array)\(names)")
    }
}
