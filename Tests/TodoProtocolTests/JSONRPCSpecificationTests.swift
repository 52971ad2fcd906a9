import Foundation
import Testing
import TodoProtocol

/// The examples of the JSON-RPC 2.0 specification's section 7, with todod's
/// methods for the spec's `subtract`, `sum` and `get_data`, answered the way
/// the daemon answers (`Responder`), and compared byte for byte.
@Suite struct JSONRPCSpecificationTests {
    /// Plays the daemon's part with the protocol module alone: reads the line,
    /// decodes each request's params with its method's type, and writes the
    /// replies; notifications get none, a batch gets one line or none.
    enum Responder {
        static func reply(to line: String) -> String? {
            switch IncomingLine.parse(Data(line.utf8)) {
            case .blank: return nil
            case .request(let request): return reply(request).map { String(decoding: $0, as: UTF8.self) }
            case .batch(let members):
                let replies = MessageEncoding.batch(members.compactMap(reply))
                return replies.isEmpty ? nil : String(decoding: replies, as: UTF8.self)
            }
        }

        static func reply(_ read: Result<IncomingRequest, IncomingRequest.Rejection>) -> Data? {
            let request: IncomingRequest
            switch read {
            case .failure(let rejection): return MessageEncoding.error(id: rejection.id, rejection.error)
            case .success(let success): request = success
            }
            do {
                let result: any Encodable & Sendable
                switch request.method {
                case AddTodo.name: result = try request.decodeParams(AddTodo.Params.self, parameterNames: ["title", "due"])
                case RemoveTodo.name: result = try request.decodeParams(RemoveTodo.Params.self, parameterNames: ["id"])
                case SetTodoDone.name: result = try request.decodeParams(SetTodoDone.Params.self, parameterNames: ["id", "done"])
                case Undo.name: result = try request.decodeParams(NoParams.self)
                default: throw RPCError.methodNotFound(request.method)
                }
                return request.id.map { MessageEncoding.response(id: $0, result: result) }
            } catch {
                return request.id.map { MessageEncoding.error(id: $0, error as! RPCError) }
            }
        }
    }

    private static let positional =
        #"{"error":{"code":-32602,"data":{"name":"protocol.invalidParams"},"message":"Invalid parameters: todo.add takes named parameters (an object), not positional ones (an array); its parameters are: title, due"},"id":1,"jsonrpc":"2.0"}"#
    private static func notFound(_ method: String, id: String) -> String {
        #"{"error":{"code":-32601,"data":{"name":"protocol.methodNotFound"},"message":"There is no method \"\#(method)\". See Protocol/PROTOCOL.md for the methods todod serves."},"id":\#(id),"jsonrpc":"2.0"}"#
    }
    private static func invalidRequest(_ detail: String) -> String {
        #"{"error":{"code":-32600,"data":{"name":"protocol.invalidRequest"},"message":"Not a JSON-RPC 2.0 request: \#(detail)"},"id":null,"jsonrpc":"2.0"}"#
    }
    private static func parseError(_ detail: String) -> String {
        #"{"error":{"code":-32700,"data":{"name":"protocol.parseError"},"message":"The line is not valid JSON \#(detail)"},"id":null,"jsonrpc":"2.0"}"#
    }

    static let examples: [(String, String?)] = [
        // rpc call with positional parameters: refused, naming the parameters.
        (#"{"jsonrpc":"2.0","method":"todo.add","params":["x"],"id":1}"#, positional),
        // rpc call with named parameters, in either order.
        (#"{"jsonrpc":"2.0","method":"todo.add","params":{"title":"milk"},"id":3}"#,
         #"{"id":3,"jsonrpc":"2.0","result":{"title":"milk"}}"#),
        (#"{"jsonrpc":"2.0","method":"todo.add","params":{"due":"2026-12-24","title":"milk"},"id":4}"#,
         #"{"id":4,"jsonrpc":"2.0","result":{"due":"2026-12-24","title":"milk"}}"#),
        // a Notification: no reply, whatever its params or method.
        (#"{"jsonrpc":"2.0","method":"todo.add","params":["x"]}"#, nil),
        (#"{"jsonrpc":"2.0","method":"foobar"}"#, nil),
        (#"{"jsonrpc":"2.0","method":"todo.remove","params":{"id":1e400}}"#, nil),
        // rpc call of non-existent method.
        (#"{"jsonrpc":"2.0","method":"foobar","id":"1"}"#, notFound("foobar", id: #""1""#)),
        (#"{"jsonrpc":"2.0","method":"rpc.foobar","id":"1"}"#, notFound("rpc.foobar", id: #""1""#)),
        // rpc call with invalid JSON.
        (#"{"jsonrpc":"2.0","method":"foobar,"params":"bar","baz]"#,
         parseError("at byte 35: expected ',' or '}', found 'p'")),
        // rpc call with invalid Request object.
        (#"{"jsonrpc":"2.0","method":1,"params":"bar"}"#, invalidRequest(#"\"method\" must be a string"#)),
        // rpc call Batch, invalid JSON: one error, not an array.
        (#"[{"jsonrpc":"2.0","method":"todo.add","params":{"title":"x"},"id":"1"},{"jsonrpc":"2.0","method"]"#,
         parseError("at byte 96: expected ':' after the key, found ']'")),
        // rpc call with an empty Array: one error, not an array.
        ("[]", invalidRequest("an empty batch ([]) holds no request")),
        (" [ ] ", invalidRequest("an empty batch ([]) holds no request")),
        // rpc call with an invalid Batch (but not empty).
        ("[1]", "[" + invalidRequest("batch member 0 is not a request object: expected an object, got a number") + "]"),
        // rpc call with invalid Batch.
        ("[1,2,3]",
         "[" + (0..<3).map { invalidRequest("batch member \($0) is not a request object: expected an object, got a number") }
            .joined(separator: ",") + "]"),
        // rpc call Batch: results in member order, nothing for the notification.
        ("""
         [{"jsonrpc":"2.0","method":"todo.add","params":{"title":"a"},"id":"1"},\
         {"jsonrpc":"2.0","method":"todo.undo"},\
         {"jsonrpc":"2.0","method":"todo.remove","params":{"id":2},"id":"2"},\
         {"foo":"boo"},\
         {"jsonrpc":"2.0","method":"foo.get","params":{"name":"myself"},"id":"5"},\
         {"jsonrpc":"2.0","method":"todo.undo","id":"9"}]
         """,
         "[" + [
            #"{"id":"1","jsonrpc":"2.0","result":{"title":"a"}}"#,
            #"{"id":"2","jsonrpc":"2.0","result":{"id":2}}"#,
            invalidRequest(#"\"jsonrpc\" must be \"2.0\""#),
            notFound("foo.get", id: #""5""#),
            #"{"id":"9","jsonrpc":"2.0","result":{}}"#,
         ].joined(separator: ",") + "]"),
        // rpc call Batch (all notifications): nothing at all.
        (#"[{"jsonrpc":"2.0","method":"todo.undo","params":[1,2,4]},{"jsonrpc":"2.0","method":"todo.add","params":[7]}]"#, nil),
    ]

    @Test(arguments: examples)
    func section7(_ line: String, reply: String?) {
        #expect(Responder.reply(to: line) == reply.map { $0 + "\n" })
    }

    /// Every reply above is one line of valid JSON (Foundation agrees).
    @Test(arguments: examples)
    func repliesAreOneLineOfJSON(_ line: String, reply: String?) throws {
        guard let written = Responder.reply(to: line) else { return }
        #expect(written.hasSuffix("\n") && written.dropLast().contains("\n") == false)
        _ = try JSONSerialization.jsonObject(with: Data(written.utf8))
    }
}
