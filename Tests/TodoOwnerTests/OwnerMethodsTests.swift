import Foundation
import Testing
import TodoProtocol
import TodoViewModels
@testable import TodoOwner

/// The owner's dispatch, derived from the method registry.
@Suite struct OwnerMethodsTests {
    /// The error a request gets from a bare owner (nothing to commit: answered at once).
    static func error(_ line: String) throws -> RPCError? {
        var owner = OwnerState(loaded: LoadedList(snapshot: ListSnapshot(), resumeRecord: nil))
        var connections = RecordedConnections()
        let client = connections.connect(1, to: &owner)
        owner.handle(IncomingLine.parse(Data(line.utf8)), from: 1)
        connections.endTurn(of: &owner)
        let reply = try #require(client.afterGreeting.first)
        guard case .failure(_, let error) = try IncomingMessage.parse(Data(reply.utf8)) else { return nil }
        return error
    }

    @Test func everyRegisteredMethodHasAHandler() {
        #expect(OwnerMethods.unhandled == [], "conform these to OwnerMethod in Sources/TodoOwner/Methods")
        #expect(OwnerMethods.byName.keys.sorted() == ProtocolMethods.names.sorted())
    }

    /// A transaction converts its commands as their methods do alone.
    @Test func everyTransactableMethodIsACommand() {
        #expect(OwnerMethods.transactableWithoutCommand == [], "conform these to CommandMethod")
        #expect(OwnerMethods.transactable.keys.sorted() == ProtocolMethods.transactable.map { $0.name }.sorted())
    }

    @Test func unknownMethodsAreStillNotFound() throws {
        for name in ["todo.fly", "rpc.other", "", "TODO.ADD"] {
            let error = try Self.error(#"{"jsonrpc":"2.0","id":1,"method":"\#(name)"}"#)
            #expect(error == RPCError.methodNotFound(name))
            #expect(error?.code == -32601 && error?.name == "protocol.methodNotFound")
        }
    }

    /// Inside a transaction, methods that are not transactable are refused by
    /// name, undo and redo with an error of their own, naming the command's index.
    @Test func aTransactionRefusesWhatItMayNotHold() throws {
        func transaction(_ method: String) throws -> RPCError? {
            try Self.error(
                #"{"jsonrpc":"2.0","id":1,"method":"transaction","params":{"commands":[{"method":"todo.add","params":{"title":"a"}},{"method":"\#(method)"}]}}"#
            )
        }
        for method in ["view.get", "transaction", "todo.fly"] {
            let error = try transaction(method)
            #expect(error == RPCError.invalidParams("\"\(method)\" cannot be part of a transaction").inTransaction(at: 1))
        }
        for method in ["todo.undo", "todo.redo"] {
            let error = try transaction(method)
            #expect(error?.name == "transaction.undoNotAllowed" && error?.data?.index == 1, "\(String(describing: error))")
        }
    }
}
