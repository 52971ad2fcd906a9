import CanonicalJSON
import Foundation
import Testing
import TodoModel
import TodoProtocol

@Suite struct IncomingRequestTests {
    private func parse(_ line: String) -> Result<IncomingRequest, IncomingRequest.Rejection> {
        IncomingRequest.parse(Data(line.utf8))
    }

    private func rejection(_ line: String) -> IncomingRequest.Rejection? {
        if case .failure(let rejection) = parse(line) { return rejection }
        return nil
    }

    private func request(_ line: String) throws -> IncomingRequest { try parse(line).get() }

    @Test func readsARequest() throws {
        let request = try request(#"{"jsonrpc":"2.0","id":7,"method":"todo.add","params":{"title":"milk"}}"#)
        #expect(request.id == .number(7))
        #expect(request.method == "todo.add")
        #expect(!request.isNotification)
        #expect(try request.decodeParams(AddTodo.Params.self) == AddTodo.Params(title: "milk"))
        #expect(request.paramsJSON == Data(#"{"title":"milk"}"#.utf8))
    }

    @Test func stringIdsAndNotificationsAreRead() throws {
        #expect(try request(#"{"jsonrpc":"2.0","id":"a","method":"view.get"}"#).id == .string("a"))
        let notification = try request(#"{"jsonrpc":"2.0","method":"view.get"}"#)
        #expect(notification.id == nil)
        #expect(notification.isNotification)
    }

    /// `"id": null` is a request, not a notification (JSON-RPC 2.0, 4.1).
    @Test func aNullIdIsARequestAnsweredWithNull() throws {
        let request = try request(#"{"jsonrpc":"2.0","id":null,"method":"todo.undo"}"#)
        #expect(request.id == .null)
        #expect(!request.isNotification)
        let reply = MessageEncoding.response(id: try #require(request.id), result: NoParams())
        #expect(String(decoding: reply, as: UTF8.self) == #"{"id":null,"jsonrpc":"2.0","result":{}}"# + "\n")
    }

    /// The reply carries the id exactly as the request wrote it.
    @Test(arguments: [
        ("1", RequestID.Value.number(1)), ("-0", .number(0)), ("-9223372036854775808", .number(.min)),
        ("1.0", .otherNumber("1.0")), ("1e3", .otherNumber("1e3")), ("1E+2", .otherNumber("1E+2")),
        ("-1.5e-7", .otherNumber("-1.5e-7")), ("9223372036854775808", .otherNumber("9223372036854775808")),
        ("1e400", .otherNumber("1e400")), (#""a""#, .string("a")), (#""a\u0062""#, .string("ab")),
        (#""\/\"""#, .string("/\"")), (#""é\n""#, .string("é\n")), (#""\uD834\uDD1E""#, .string("𝄞")), ("null", .null),
    ])
    func idsAreEchoedExactlyAsSent(_ json: String, value: RequestID.Value) throws {
        let id = try #require(try request(#"{"jsonrpc":"2.0","method":"todo.undo","id":\#(json)}"#).id)
        #expect(id.value == value)
        #expect(id.json == json)
        let reply = String(decoding: MessageEncoding.response(id: id, result: NoParams()), as: UTF8.self)
        #expect(reply == #"{"id":\#(json),"jsonrpc":"2.0","result":{}}"# + "\n")
        let error = String(decoding: MessageEncoding.error(id: id, .methodNotFound("x")), as: UTF8.self)
        #expect(error.hasSuffix(#","id":\#(json),"jsonrpc":"2.0"}"# + "\n"))
    }

    /// An event's `cause` is encoded by `JSONEncoder`, which writes values:
    /// an id it cannot write exactly is written as near as it can, and never crashes it.
    @Test func idsInEventsAreWrittenAsValues() throws {
        func cause(_ json: String) throws -> String {
            let line = #"{"jsonrpc":"2.0","method":"a","id":"# + json + "}"
            let id = try IncomingRequest.parse(Data(line.utf8)).get().id
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return String(decoding: try encoder.encode(Cause(connection: 1, request: id)), as: UTF8.self)
        }
        #expect(try cause("7") == #"{"connection":1,"request":7}"#)
        #expect(try cause(#""a\u0062""#) == #"{"connection":1,"request":"ab"}"#)
        #expect(try cause("1.5") == #"{"connection":1,"request":1.5}"#)
        #expect(try cause("1e400") == #"{"connection":1,"request":null}"#)
        #expect(try cause("null") == #"{"connection":1,"request":null}"#)
    }

    @Test(arguments: ["not json", "{\"jsonrpc\":", "\u{FF}\u{FE}", "{'single':'quotes'}", "{\"a\":1,\"a\":2}", "[1,]"])
    func textThatIsNotJSONIsAParseError(_ line: String) {
        let rejection = rejection(line)
        #expect(rejection?.error.code == -32700)
        #expect(rejection?.error.name == "protocol.parseError")
        #expect(rejection?.error.message.hasPrefix("The line is not valid JSON at byte ") == true)
        #expect(rejection?.id == nil)
    }

    @Test func invalidUTF8IsAParseErrorNamingTheByte() {
        guard case .failure(let rejection) = IncomingRequest.parse(Data([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x7D])) else {
            Issue.record("invalid UTF-8 was accepted")
            return
        }
        #expect(rejection.error.code == -32700)
        #expect(rejection.error.message.hasPrefix("The line is not valid JSON at byte 2: invalid UTF-8"))
    }

    /// A request whose id is a duplicate key is not a request with either id.
    @Test func duplicateEnvelopeKeysAreAParseError() {
        let rejection = rejection(#"{"jsonrpc":"2.0","id":1,"method":"todo.undo","id":2}"#)
        #expect(rejection?.error.code == -32700)
        #expect(rejection?.id == nil)
        #expect(rejection?.error.message.contains(#"the key "id" appears twice"#) == true)
    }

    @Test(arguments: [
        ("[1,2]", "expected an object, got an array"),
        ("42", "expected an object, got a number"),
        (#""x""#, "expected an object, got a string"),
        (#"{"id":1,"method":"view.get"}"#, "\"jsonrpc\" must be \"2.0\""),
        (#"{"jsonrpc":"1.0","id":1,"method":"view.get"}"#, "\"jsonrpc\" must be \"2.0\""),
        (#"{"jsonrpc":2.0,"id":1,"method":"view.get"}"#, "\"jsonrpc\" must be \"2.0\""),
        (#"{"jsonrpc":"2.0 ","id":1,"method":"view.get"}"#, "\"jsonrpc\" must be \"2.0\""),
        (#"{"jsonrpc":"2.0","id":1}"#, "\"method\" must be a string"),
        (#"{"jsonrpc":"2.0","id":1,"method":null}"#, "\"method\" must be a string"),
        (#"{"jsonrpc":"2.0","id":1,"method":["todo.add"]}"#, "\"method\" must be a string"),
        (#"{"jsonrpc":"2.0","id":{"a":1},"method":"view.get"}"#, "\"id\" must be a string, a number or null, got an object"),
        (#"{"jsonrpc":"2.0","id":true,"method":"view.get"}"#, "\"id\" must be a string, a number or null, got a boolean"),
        (#"{"jsonrpc":"2.0","id":[1],"method":"view.get"}"#, "\"id\" must be a string, a number or null, got an array"),
        (#"{"jsonrpc":"2.0","id":1,"method":"view.get","params":"bar"}"#, "\"params\" must be an object (or left out), got a string"),
        (#"{"jsonrpc":"2.0","id":1,"method":"view.get","params":null}"#, "\"params\" must be an object (or left out), got null"),
        (#"{"jsonrpc":"2.0","id":1,"method":"view.get","params":3}"#, "\"params\" must be an object (or left out), got a number"),
    ])
    func jsonThatIsNotARequestIsAnInvalidRequest(line: String, message: String) {
        let rejection = rejection(line)
        #expect(rejection?.error.code == -32600)
        #expect(rejection?.error.message.contains(message) == true, "\(rejection?.error.message ?? "accepted")")
    }

    @Test func theIdIsKeptWhenOnlyTheRestIsWrong() {
        #expect(rejection(#"{"jsonrpc":"2.0","id":5}"#)?.id == .number(5))
        #expect(rejection(#"{"jsonrpc":"2.0","id":"x","method":"a","params":1}"#)?.id == .string("x"))
        // An id of the wrong type is not kept: it could not be echoed as sent.
        #expect(rejection(#"{"jsonrpc":"2.0","id":true,"method":"a"}"#)?.id == nil)
    }

    /// A structurally invalid request object is answered even without an id
    /// (JSON-RPC 2.0, section 7: `{"jsonrpc": "2.0", "method": 1, "params": "bar"}`).
    @Test func anInvalidRequestWithoutAnIdIsStillARejection() {
        #expect(rejection(#"{"jsonrpc":"2.0","method":"todo.add","params":"bar"}"#)?.error.code == -32600)
    }

    /// Escapes in the envelope's keys and values mean what they say; other
    /// members are ignored, as JSON-RPC 2.0 does not forbid them.
    @Test func escapedEnvelopeKeysAndExtraMembersAreRead() throws {
        let request = try request(#"{"\u006Asonrpc":"2\u002E0","m\u0065thod":"todo\u002Eadd","id":1,"extra":[{}],"params":{"t\u0069tle":"\u00e9"}}"#)
        #expect(request.method == "todo.add")
        #expect(try request.decodeParams(AddTodo.Params.self) == AddTodo.Params(title: "é"))
    }

    @Test func missingAndMistypedParamsNameTheField() throws {
        let missing = try request(#"{"jsonrpc":"2.0","id":1,"method":"todo.edit","params":{"id":1}}"#)
        #expect(throws: RPCError.invalidParams("\"title\" is missing")) { try missing.decodeParams(EditTodo.Params.self) }

        let mistyped = try request(#"{"jsonrpc":"2.0","id":1,"method":"todo.setDone","params":{"id":"x","done":true}}"#)
        #expect(throws: RPCError.invalidParams("\"id\": expected an integer")) {
            try mistyped.decodeParams(SetTodoDone.Params.self)
        }
    }

    /// Sort text that cannot be read is todo.invalidSort, as PROTOCOL.md's
    /// errors say, in every method that takes a sort (and inside a
    /// transaction's JSONValue path too): not the generic invalidParams. A
    /// name of lowercase letters reads as a declared field's (`colour`), and
    /// one the list does not declare is todo.invalidSort too, from the view model.
    @Test func unreadableSortTextIsInvalidSort() throws {
        let unknownKey = try request(#"{"jsonrpc":"2.0","id":1,"method":"view.get","params":{"own":true,"sort":"priority,colour2"}}"#)
        do {
            _ = try unknownKey.decodeParams(ViewSelection.self)
            Issue.record("decoded")
        } catch {
            #expect(error.name == "todo.invalidSort")
            #expect(error.code == RPCError.Code.invalidParams)
            #expect(error.message.contains("\"colour2\" is not a sort key"), "\(error.message)")
        }
        let undeclared = RPCError(TodoError.invalidSort("\"colour\" is not a sort key"))
        #expect(undeclared.name == "todo.invalidSort")
        #expect(undeclared.code == RPCError.Code.invalidParams)
        let twice = try request(#"{"jsonrpc":"2.0","id":1,"method":"view.save","params":{"name":"a","sort":"due,due-"}}"#)
        #expect(throws: RPCError.invalidSort("due is named twice")) { try twice.decodeParams(SaveView.Params.self) }
        #expect {
            try IncomingRequest.decode(["sort": .string("")], as: SetViewOptions.Params.self)
        } throws: { error in
            (error as? RPCError)?.name == "todo.invalidSort"
        }
        // A sort of the wrong type is still a parameter of the wrong type.
        let mistyped = try request(#"{"jsonrpc":"2.0","id":1,"method":"view.get","params":{"sort":5}}"#)
        #expect(throws: RPCError.invalidParams("\"sort\": expected a string")) { try mistyped.decodeParams(ViewSelection.self) }
    }

    @Test func absentParamsReadAsAnEmptyObject() throws {
        let request = try request(#"{"jsonrpc":"2.0","id":1,"method":"view.get"}"#)
        #expect(try request.decodeParams(NoParams.self) == NoParams())
        #expect(request.paramsJSON == nil)
    }

    /// Positional params keep the request (it is answered with its id) and
    /// are refused when decoded, naming the parameters when the caller knows them.
    @Test func positionalParamsAreRefusedByName() throws {
        let request = try request(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":["milk"]}"#)
        #expect(throws: RPCError.invalidParams("todo.add takes named parameters (an object), not positional ones (an array)")) {
            try request.decodeParams(AddTodo.Params.self)
        }
        #expect(
            throws: RPCError.invalidParams(
                "todo.add takes named parameters (an object), not positional ones (an array); its parameters are: title, due")
        ) {
            try request.decodeParams(AddTodo.Params.self, parameterNames: ["title", "due"])
        }
        #expect(throws: RPCError.positionalParams(method: "todo.add", parameterNames: ["title", "due"])) {
            try request.decodeParams(AddTodo.Params.self, parameterNames: ["title", "due"])
        }
    }

    /// `[]` gives no parameters, like `{}`: nothing is ambiguous about it.
    @Test func anEmptyArrayOfParamsReadsAsNone() throws {
        let request = try request(#"{"jsonrpc":"2.0","id":1,"method":"todo.undo","params":[ ]}"#)
        #expect(try request.decodeParams(NoParams.self) == NoParams())
        #expect(throws: RPCError.invalidParams("\"id\" is missing")) { try request.decodeParams(EditTodo.Params.self) }
    }

    /// A number that does not fit its parameter is -32602 naming it; the
    /// line was valid JSON, so it is not a parse error.
    @Test(arguments: [
        (#"{"id":99999999999999999999999,"done":true}"#,
         #""id": 99999999999999999999999 does not fit: integers here are from -9223372036854775808 to 9223372036854775807"#),
        (#"{"id":9223372036854775808,"done":true}"#, #""id": 9223372036854775808 does not fit: integers here"#),
        (#"{"id":1e400,"done":true}"#, #""id": 1e400 does not fit: it is out of range"#),
        (#"{"id":1e19,"done":true}"#, #""id": 1e19 does not fit: it is out of range"#),
        (#"{"id":-1E+999,"done":true}"#, #""id": -1E+999 does not fit: it is out of range"#),
        (#"{"id":1.5,"done":true}"#, #""id": 1.5 does not fit: it is not a whole number"#),
        (#"{"extra":1e400,"done":true,"id":2.5}"#, #""id": 2.5 does not fit"#),
        (#"{"done":true,"id":"# + String(repeating: "9", count: 5000) + "}",
         #""id": "# + String(repeating: "9", count: 40) + "… does not fit"),
    ])
    func numbersThatDoNotFitNameTheParameter(_ params: String, message: String) throws {
        let request = try request(#"{"jsonrpc":"2.0","id":1,"method":"todo.setDone","params":\#(params)}"#)
        do {
            _ = try request.decodeParams(SetTodoDone.Params.self)
            Issue.record("decoded")
        } catch {
            #expect(error.code == -32602)
            #expect(error.message.hasPrefix("Invalid parameters: " + message), "\(error.message)")
        }
    }

    private struct Pair: Decodable {
        var a: Int64
        var b: Int64
    }

    /// With several numbers that do not fit, the first in the line is named.
    @Test func theFirstNumberThatDoesNotFitIsNamed() throws {
        let request = try request(#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"c":[1e999],"b":1e400,"a":2.5}}"#)
        #expect(throws: RPCError.invalidParams(#""b": 1e400 does not fit: it is out of range"#)) {
            try request.decodeParams(Pair.self)
        }
    }

    /// Inside a transaction the path leads to the command's parameter.
    @Test func aTransactionsNumbersAreNamedByTheirPath() throws {
        let request = try request(
            #"{"jsonrpc":"2.0","id":1,"method":"transaction","params":{"commands":[{"method":"todo.remove","params":{"id":1}},{"method":"todo.remove","params":{"id":1e400}}]}}"#)
        do {
            _ = try request.decodeParams(Transaction.Params.self)
            Issue.record("decoded")
        } catch {
            #expect(error.code == -32602)
            #expect(error.message.contains(#""commands.[1].params.id""#), "\(error.message)")
        }
        // A command's own params, decoded from its JSONValue, name the field too.
        #expect(throws: RPCError.invalidParams(#""id": 1.5 does not fit: it is not a whole number"#)) {
            try IncomingRequest.decode(["id": .double(1.5)], as: RemoveTodo.Params.self)
        }
    }

    @Test func paramsCanBeReadAsAJSONValue() throws {
        let request = try request(#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":[1,2.5,"\u00e9",null,true,{}]}}"#)
        #expect(try request.decodeParams(JSONValue.self) == ["a": [1, .double(2.5), "é", nil, true, [:]]])
    }
}

@Suite struct IncomingLineTests {
    @Test(arguments: ["", " ", "\t\r", "  \r\n  "])
    func whitespaceIsBlank(_ line: String) {
        guard case .blank = IncomingLine.parse(Data(line.utf8)) else {
            Issue.record("not blank")
            return
        }
        #expect(IncomingLine.isBlank(Data(line.utf8)))
    }

    @Test func aCarriageReturnBeforeTheNewlineIsWhitespace() throws {
        guard case .request(.success(let request)) = IncomingLine.parse(Data("{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"id\":1}\r".utf8)) else {
            Issue.record("not read")
            return
        }
        #expect(request.id == .number(1))
    }

    /// Data, arrays, raw buffers and collections that are not contiguous all read the same.
    @Test func anyCollectionOfBytesIsRead() {
        let bytes = Array(#"[{"jsonrpc":"2.0","method":"a","id":1},{"jsonrpc":"2.0","method":"b"}]"#.utf8)
        let notContiguous = Array(bytes.reversed()).reversed()
        #expect(notContiguous.withContiguousStorageIfAvailable { _ in true } == nil)
        let lines = [
            IncomingLine.parse(bytes), IncomingLine.parse(Data(bytes)), IncomingLine.parse(notContiguous),
            bytes.withUnsafeBytes { IncomingLine.parse($0) },
        ]
        for line in lines {
            guard case .batch(let members) = line, members.count == 2,
                case .success(let first) = members[0], case .success(let second) = members[1]
            else {
                Issue.record("not a batch of two: \(line)")
                continue
            }
            #expect(first.method == "a" && first.id == .number(1))
            #expect(second.method == "b" && second.isNotification)
        }
    }

    @Test func aBatchKeepsItsMembersInOrderWithTheirOwnOutcomes() {
        let line = #"[{"jsonrpc":"2.0","method":"a","id":1},7,{"jsonrpc":"1.0","method":"b","id":"x"},[],{"jsonrpc":"2.0","method":"c","params":[1],"id":2}]"#
        guard case .batch(let members) = IncomingLine.parse(Data(line.utf8)) else {
            Issue.record("not a batch")
            return
        }
        #expect(members.count == 5)
        #expect((try? members[0].get())?.method == "a")
        guard case .failure(let notObject) = members[1], case .failure(let wrongVersion) = members[2],
            case .failure(let nested) = members[3], case .success(let positional) = members[4]
        else {
            Issue.record("members misread: \(members)")
            return
        }
        #expect(notObject.id == nil && notObject.error.code == -32600)
        #expect(wrongVersion.id == .string("x") && wrongVersion.error.code == -32600)
        #expect(nested.error.message.contains("batch member 3 is not a request object: expected an object, got an array"))
        #expect(positional.id == .number(2))
        #expect(throws: RPCError.self) { try positional.decodeParams(NoParams.self) }
    }

    /// A batch is one line: a member that is not JSON makes all of it a parse error.
    @Test func aBatchWithASyntaxErrorIsOneParseError() {
        guard case .request(.failure(let rejection)) = IncomingLine.parse(Data(#"[{"jsonrpc":"2.0","method":"a","id":1},{"a":1,"a":2}]"#.utf8))
        else {
            Issue.record("not one rejection")
            return
        }
        #expect(rejection.error.code == -32700)
    }

    /// `IncomingRequest.parse` reads one request object, not a batch.
    @Test func singleRequestParsingRefusesBatches() {
        guard case .failure(let rejection) = IncomingRequest.parse(Data(#"[{"jsonrpc":"2.0","method":"a","id":1}]"#.utf8)) else {
            Issue.record("a batch was read as a request")
            return
        }
        #expect(rejection.error.code == -32600)
    }
}
