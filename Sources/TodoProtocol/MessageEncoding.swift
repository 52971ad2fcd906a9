import CanonicalJSON
import FoundationEssentials

/// Writes protocol messages as lines: one compact JSON object followed by `\n`.
///
/// Keys are sorted so the same message is always the same bytes, which keeps
/// transcripts and logs comparable. Slashes are not escaped, so paths stay readable.
public enum MessageEncoding {
    /// `value` as compact JSON with sorted keys: what `JSONEncoder` writes
    /// with `[.sortedKeys, .withoutEscapingSlashes]`, written by
    /// `CanonicalJSONEncoder` at a fraction of the cost, or by the value
    /// itself when it is `JSONWritable` (an event's body).
    public static func json(_ value: some Encodable) -> Data {
        Data(bytes(value))
    }

    private static func bytes(_ value: some Encodable, after prefix: String = "") -> [UInt8] {
        var bytes = Array(prefix.utf8)
        append(value, to: &bytes)
        return bytes
    }

    /// Appends `value`'s JSON: written by the value itself when it can
    /// (`JSONWritable`: the row replies and events every edit sends, the
    /// same bytes for a fraction of the instructions), else by
    /// `CanonicalJSONEncoder`.
    private static func append(_ value: some Encodable, to bytes: inout [UInt8]) {
        do {
            if let writable = value as? any JSONWritable {
                try writable.writeJSON(into: &bytes)
            } else {
                try CanonicalJSONEncoder().encode(value, appendingTo: &bytes)
            }
        } catch {
            // Every message type here is plain data (strings, integers, arrays);
            // encoding one cannot fail unless a type is broken.
            preconditionFailure("encoding a protocol message failed: \(error)")
        }
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

    private static func line(_ value: some Encodable) -> Data {
        var line = bytes(value)
        line.append(UInt8(ascii: "\n"))
        return Data(line)
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

    /// `{"id":ID,"jsonrpc":"2.0","result":RESULT}` and a newline.
    ///
    /// The id is spliced in as the client wrote it (`RequestID.json`), which
    /// no encoder can do; only the result is encoded (an `ItemResult`, the
    /// reply to every edit of an item, writes itself). Keys stay in sorted
    /// order, as every other line has them.
    public static func response<Result: Encodable>(id: RequestID, result: Result) -> Data {
        response(id: id) { append(result, to: &$0) }
    }

    /// The same line for a result that writes itself, known to at compile
    /// time (`RPCMethod.response(id:result:)`): no cast to find it out.
    public static func response<Result: JSONWritable>(id: RequestID, writing result: Result) -> Data {
        response(id: id) { line in
            do {
                try result.writeJSON(into: &line)
            } catch {
                preconditionFailure("encoding a protocol message failed: \(error)")
            }
        }
    }

    private static func response(id: RequestID, result writeResult: (inout [UInt8]) -> Void) -> Data {
        var line: [UInt8] = []
        // Room for a reply holding a row, so the line is not copied as it grows.
        line.reserveCapacity(512)
        line.appendJSONLiteral(#"{"id":"#)
        line.append(contentsOf: id.json.utf8)
        line.appendJSONLiteral(#","jsonrpc":"2.0","result":"#)
        writeResult(&line)
        line.appendJSONLiteral("}\n")
        return Data(line)
    }

    /// `{"error":ERROR,"id":ID,"jsonrpc":"2.0"}` and a newline; `"id":null`
    /// when the request's id could not be read (JSON-RPC requires the member).
    public static func error(id: RequestID?, _ error: RPCError) -> Data {
        var line = bytes(error, after: #"{"error":"#)
        line.append(contentsOf: #","id":"#.utf8)
        line.append(contentsOf: (id?.json ?? "null").utf8)
        line.append(contentsOf: #","jsonrpc":"2.0"}"#.utf8)
        line.append(UInt8(ascii: "\n"))
        return Data(line)
    }

    /// The replies to a batch's members as one line: `[REPLY,REPLY]` and a
    /// newline, from reply lines as `response` and `error` make them. No
    /// replies (every member was a notification) is no line: empty data,
    /// and nothing is to be written (JSON-RPC 2.0, section 6).
    public static func batch(_ replies: [Data]) -> Data {
        guard !replies.isEmpty else { return Data() }
        var line = Data()
        line.reserveCapacity(replies.reduce(1) { $0 + $1.count })
        line.append(UInt8(ascii: "["))
        for (index, reply) in replies.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            line.append(reply.last == UInt8(ascii: "\n") ? reply.dropLast() : reply)
        }
        line.append(contentsOf: "]\n".utf8)
        return line
    }

    public static func notification<N: RPCNotification>(_ notification: N.Type, params: N.Params) -> Data {
        line(Request(id: nil, method: N.name, params: params))
    }
}
