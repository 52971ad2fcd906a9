import Foundation
import Testing
import TodoProtocol

@Suite struct IncomingRequestTests {
    private func parse(_ line: String) -> Result<IncomingRequest, IncomingRequest.Rejection> {
        IncomingRequest.parse(Data(line.utf8))
    }

    private func rejection(_ line: String) -> IncomingRequest.Rejection? {
        if case .failure(let rejection) = parse(line) { return rejection }
        return nil
    }

    @Test func readsARequest() throws {
        let request = try parse(#"{"jsonrpc":"2.0","id":7,"method":"todo.add","params":{"title":"milk"}}"#).get()
        #expect(request.id == .number(7))
        #expect(request.method == "todo.add")
        #expect(try request.decodeParams(AddTodo.Params.self) == AddTodo.Params(title: "milk"))
    }

    @Test func stringIdsAndNotificationsAreRead() throws {
        #expect(try parse(#"{"jsonrpc":"2.0","id":"a","method":"view.get"}"#).get().id == .string("a"))
        #expect(try parse(#"{"jsonrpc":"2.0","method":"view.get"}"#).get().id == nil)
    }

    @Test(arguments: ["not json", "{\"jsonrpc\":", "\u{FF}\u{FE}", "{'single':'quotes'}"])
    func textThatIsNotJSONIsAParseError(_ line: String) {
        let rejection = rejection(line)
        #expect(rejection?.error.code == -32700)
        #expect(rejection?.error.name == "protocol.parseError")
        #expect(rejection?.id == nil)
    }

    @Test func invalidUTF8IsAParseError() {
        let rejection = IncomingRequest.parse(Data([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x7D]))
        guard case .failure(let rejection) = rejection else {
            Issue.record("invalid UTF-8 was accepted")
            return
        }
        #expect(rejection.error.code == -32700)
    }

    @Test(arguments: [
        ("[1,2]", "expected an object"),
        ("42", "expected an object"),
        (#"{"id":1,"method":"view.get"}"#, "\"jsonrpc\" must be \"2.0\""),
        (#"{"jsonrpc":"1.0","id":1,"method":"view.get"}"#, "\"jsonrpc\" must be \"2.0\""),
        (#"{"jsonrpc":"2.0","id":1}"#, "\"method\" must be a string"),
        (#"{"jsonrpc":"2.0","id":{"a":1},"method":"view.get"}"#, "\"id\" must be a string or an integer"),
        (#"{"jsonrpc":"2.0","id":1,"method":"view.get","params":[1]}"#, "\"params\" must be an object"),
    ])
    func jsonThatIsNotARequestIsAnInvalidRequest(line: String, message: String) {
        let rejection = rejection(line)
        #expect(rejection?.error.code == -32600)
        #expect(rejection?.error.message.contains(message) == true, "\(rejection?.error.message ?? "accepted")")
    }

    @Test func theIdIsKeptWhenOnlyTheRestIsWrong() {
        #expect(rejection(#"{"jsonrpc":"2.0","id":5}"#)?.id == .number(5))
    }

    @Test func missingAndMistypedParamsNameTheField() throws {
        let missing = try parse(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{}}"#).get()
        #expect(throws: RPCError.invalidParams("\"title\" is missing")) { try missing.decodeParams(AddTodo.Params.self) }

        let mistyped = try parse(#"{"jsonrpc":"2.0","id":1,"method":"todo.setDone","params":{"id":"x","done":true}}"#).get()
        #expect(throws: RPCError.invalidParams("\"id\": expected an integer")) {
            try mistyped.decodeParams(SetTodoDone.Params.self)
        }
    }

    @Test func absentParamsReadAsAnEmptyObject() throws {
        let request = try parse(#"{"jsonrpc":"2.0","id":1,"method":"view.get"}"#).get()
        #expect(try request.decodeParams(NoParams.self) == NoParams())
    }
}
