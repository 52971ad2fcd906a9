import Foundation

/// Writes protocol messages as lines: one compact JSON object followed by `\n`.
///
/// Keys are sorted so the same message is always the same bytes, which keeps
/// transcripts and logs comparable. Slashes are not escaped, so paths stay readable.
public enum MessageEncoding {
    private static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    private struct Request<Params: Encodable>: Encodable {
        let jsonrpc = "2.0"
        let id: RequestID?
        let method: String
        let params: Params
    }

    private struct RequestWithoutParams: Encodable {
        let jsonrpc = "2.0"
        let id: RequestID
        let method: String
    }

    private struct Response<Result: Encodable>: Encodable {
        let jsonrpc = "2.0"
        let id: RequestID
        let result: Result
    }

    private struct ErrorResponse: Encodable {
        let jsonrpc = "2.0"
        let id: RequestID?
        let error: RPCError

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(jsonrpc, forKey: .jsonrpc)
            // JSON-RPC requires "id": null when the request's id could not be read.
            try container.encode(id, forKey: .id)
            try container.encode(error, forKey: .error)
        }

        enum CodingKeys: String, CodingKey { case jsonrpc, id, error }
    }

    private static func line(_ value: some Encodable) -> Data {
        do {
            var data = try makeEncoder().encode(value)
            data.append(UInt8(ascii: "\n"))
            return data
        } catch {
            // Every message type here is plain data (strings, integers, arrays);
            // encoding one cannot fail unless a type is broken.
            preconditionFailure("encoding a protocol message failed: \(error)")
        }
    }

    public static func request<M: RPCMethod>(_ method: M.Type, id: RequestID, params: M.Params) -> Data {
        line(Request(id: id, method: M.name, params: params))
    }

    /// A request for any method, parameters left out when nil.
    public static func request(method: String, id: RequestID, params: JSONValue?) -> Data {
        if let params {
            return line(Request(id: id, method: method, params: params))
        }
        return line(RequestWithoutParams(id: id, method: method))
    }

    public static func response<Result: Encodable>(id: RequestID, result: Result) -> Data {
        line(Response(id: id, result: result))
    }

    public static func error(id: RequestID?, _ error: RPCError) -> Data {
        line(ErrorResponse(id: id, error: error))
    }

    public static func notification<N: RPCNotification>(_ notification: N.Type, params: N.Params) -> Data {
        line(Request(id: nil, method: N.name, params: params))
    }
}
