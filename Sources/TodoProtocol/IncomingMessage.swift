import FoundationEssentials
import TodoViewState

/// A line the client read from the daemon: a reply to one of its requests, or
/// a pushed notification. The payload is decoded later, once the caller knows
/// which type to expect.
public enum IncomingMessage: Sendable {
    case response(id: RequestID, payload: Payload)
    case failure(id: RequestID?, error: RPCError)
    case notification(method: String, payload: Payload)

    /// The undecoded line, kept so the typed result is decoded once, by whoever wants it.
    public struct Payload: Sendable {
        public let line: Data

        /// The reply's `result` as `Result`.
        public func result<Result: Decodable>(_ type: Result.Type) throws -> Result {
            // A list view's rows are read without Codable (see ListStateDecoding).
            if Result.self == TodoListState.self, let state = ListStateDecoding.listState(fromReply: line) {
                return state as! Result
            }
            return try JSONDecoder().decode(ResultEnvelope<Result>.self, from: line).result
        }

        /// The notification's `params` as `Params`.
        public func params<Params: Decodable>(_ type: Params.Type) throws -> Params {
            try JSONDecoder().decode(ParamsEnvelope<Params>.self, from: line).params
        }

        /// The line as text, without its newline.
        public var text: String { String(decoding: line, as: UTF8.self) }
    }

    private struct Header: Decodable {
        var id: RequestID?
        var method: String?
        var error: RPCError?
    }

    private struct ResultEnvelope<Result: Decodable>: Decodable { var result: Result }

    /// The line with only the members `Header` reads, when it is an object
    /// `JSONBytes` can walk: a reply of megabytes (a large view) is then not
    /// decoded whole just to learn its id.
    private static func headerOnly(of line: Data) -> Data? {
        guard line.count > 4096 else { return nil }
        return line.withUnsafeBytes { raw -> Data? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var reader = JSONBytes(bytes)
            guard let members = reader.memberRanges(stoppingAt: ["params", "result"]),
                members["id"] != nil || members["method"] != nil
            else { return nil }
            var header = Array("{".utf8)
            for key in ["id", "method", "error"] {
                guard let range = members[key] else { continue }
                if header.count > 1 { header.append(UInt8(ascii: ",")) }
                header += Array("\"\(key)\":".utf8)
                header += bytes[range]
            }
            header.append(UInt8(ascii: "}"))
            return Data(header)
        }
    }
    private struct ParamsEnvelope<Params: Decodable>: Decodable { var params: Params }

    /// Reads one line from the daemon.
    public static func parse(_ line: Data) throws -> IncomingMessage {
        let header = try JSONDecoder().decode(Header.self, from: headerOnly(of: line) ?? line)
        if let error = header.error {
            return .failure(id: header.id, error: error)
        }
        if let method = header.method, header.id == nil {
            return .notification(method: method, payload: Payload(line: line))
        }
        guard let id = header.id else {
            throw RPCError.invalidRequest("a reply from todod had neither an id nor a method")
        }
        return .response(id: id, payload: Payload(line: line))
    }
}
