import CanonicalJSON
import Foundation
import Testing
@testable import TodoProtocol

/// The method registry: each method declared once, and what is derived from it.
@Suite struct ProtocolMethodsTests {
    @Test func everyMethodIsListedOnceByName() {
        #expect(Set(ProtocolMethods.names).count == ProtocolMethods.all.count)
        #expect(ProtocolMethods.names.first == "todo.add" && ProtocolMethods.names.contains("server.status"))
    }

    @Test func everyErrorAMethodDeclaresIsAKnownError() {
        let known = Set(ProtocolDescription.errors.map(\.name))
        for method in ProtocolMethods.all {
            #expect(Set(method.errors).subtracting(known).sorted() == [], "\(method.name)")
            #expect(Set(method.errors).count == method.errors.count, "\(method.name) lists an error twice")
        }
    }

    /// A refused command refuses its transaction, so the transaction can
    /// answer with every error of every method it may hold.
    @Test func aTransactionDeclaresTheErrorsOfEveryCommandItMayHold() {
        for method in ProtocolMethods.transactable {
            #expect(Set(method.errors).subtracting(Transaction.errors).sorted() == [], "\(method.name)")
        }
    }

    /// The schema's list of what a transaction may hold comes from the
    /// declarations; undo and redo are commands that may not be in one.
    @Test func theTransactionSchemaAllowsExactlyTheTransactableMethods() throws {
        let transactable = ProtocolMethods.transactable.map { $0.name }
        #expect(AddTodo.isTransactable && ClearCompleted.isTransactable)
        #expect(!Undo.isTransactable && !Redo.isTransactable && !Transaction.isTransactable && !GetListView.isTransactable)
        guard case .object(let definitions)? = ProtocolDescription.document["$defs"],
            case .object(let params)? = definitions["transaction.params"],
            case .object(let properties)? = params["properties"], case .object(let commands)? = properties["commands"],
            case .object(let item)? = commands["items"], case .object(let itemProperties)? = item["properties"],
            case .object(let method)? = itemProperties["method"]
        else {
            Issue.record("no transaction.params in the schema")
            return
        }
        #expect(method["enum"] == .array(transactable.map(JSONValue.string)))
    }

    @Test func everyMethodHasItsRequestResponseAndIndexEntryInTheDocument() throws {
        guard case .object(let definitions)? = ProtocolDescription.document["$defs"],
            case .object(let index)? = ProtocolDescription.document["methods"],
            case .array(let clientMessages)? = definitions["ClientMessage"]?["oneOf"]
        else {
            Issue.record("the document lacks $defs or methods")
            return
        }
        #expect(index.keys.sorted() == ProtocolMethods.names.sorted())
        #expect(clientMessages == ProtocolMethods.names.map { JSONSchema.ref("request.\($0)") })
        for name in ProtocolMethods.names {
            for definition in ["\(name).params", "\(name).result", "request.\(name)", "response.\(name)"] {
                #expect(definitions[definition] != nil, "no \(definition)")
            }
        }
    }

    /// `params` may be left out exactly when the method requires none of its
    /// parameters, and the request's schema says so.
    @Test func paramsMayBeOmittedWhenNothingIsRequired() {
        #expect(Undo.paramsMayBeOmitted && GetListView.paramsMayBeOmitted && SubscribeListView.paramsMayBeOmitted)
        #expect(!AddTodo.paramsMayBeOmitted && !UnsubscribeListView.paramsMayBeOmitted && !Transaction.paramsMayBeOmitted)
        guard case .object(let definitions)? = ProtocolDescription.document["$defs"] else {
            Issue.record("the document lacks $defs")
            return
        }
        for method in ProtocolMethods.all {
            let required = definitions["request.\(method.name)"]?["required"]
            #expect(required == (method.paramsMayBeOmitted ? ["jsonrpc", "method"] : ["jsonrpc", "method", "params"]), "\(method.name)")
        }
    }

    @Test func parameterNamesComeFromTheDeclaredSchema() {
        #expect(AddTodo.parameterNames == ["due", "text", "title"])
        #expect(GetListView.parameterNames == ["filter", "flat", "grouping", "own", "query", "sort", "view"])
        #expect(Undo.parameterNames == [])
    }

    /// Positional parameters are refused naming the parameters the method declares.
    @Test func aRequestsParamsAreDecodedAsItsMethodTakesThem() throws {
        let named = try IncomingRequest.parse(Data(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":"milk"}}"#.utf8)).get()
        #expect(try named.params(for: AddTodo.self) == AddTodo.Params(title: "milk"))
        let positional = try IncomingRequest.parse(Data(#"{"jsonrpc":"2.0","id":1,"method":"todo.edit","params":[1,"milk"]}"#.utf8)).get()
        #expect(throws: RPCError.positionalParams(method: "todo.edit", parameterNames: ["id", "title"])) {
            try positional.params(for: EditTodo.self)
        }
    }

    // MARK: PROTOCOL.md

    static let protocolDocument = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Protocol/PROTOCOL.md")

    /// PROTOCOL.md's method table is the one written from the registry.
    @Test func protocolMarkdownHoldsTheGeneratedMethodTable() throws {
        let text = try String(contentsOf: Self.protocolDocument, encoding: .utf8)
        let begin = "<!-- methods:begin -->\n", end = "<!-- methods:end -->"
        let afterBegin = try #require(text.range(of: begin), "PROTOCOL.md has no \(begin)")
        let beforeEnd = try #require(text.range(of: end, range: afterBegin.upperBound..<text.endIndex), "no \(end)")
        let written = String(text[afterBegin.upperBound..<beforeEnd.lowerBound])
        #expect(
            written == ProtocolDescription.methodTable,
            "PROTOCOL.md's method table is stale: replace it with the output of `todod --print-method-table`")
    }

    @Test func theMethodTableHasARowPerMethod() {
        let rows = ProtocolDescription.methodTable.split(separator: "\n").dropFirst(2)
        #expect(rows.map { $0.split(separator: "`")[1] } == ProtocolMethods.names.map { Substring($0) })
        #expect(rows.first?.contains("| `{\"due\"?: DueDate, \"text\"?: string, \"title\"?: string}` | `{\"item\": TodoRow}` |") == true)
    }
}

extension JSONValue {
    /// An object's member, for reading the document in tests.
    fileprivate subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }
}
