import Foundation
import Testing
import TodoProtocol
import TodoStorage
@testable import TodoDaemon

/// The daemon's dispatch, derived from the method registry.
@Suite struct OwnerMethodsTests {
    @Test func everyRegisteredMethodHasAHandler() {
        #expect(OwnerMethods.unhandled == [], "conform these to OwnerMethod in Sources/TodoDaemon/Methods")
        #expect(OwnerMethods.byName.keys.sorted() == ProtocolMethods.names.sorted())
    }

    /// A transaction converts its commands as their methods do alone.
    @Test func everyTransactableMethodIsACommand() {
        #expect(OwnerMethods.transactableWithoutCommand == [], "conform these to CommandMethod")
        #expect(OwnerMethods.transactable.keys.sorted() == ProtocolMethods.transactable.map { $0.name }.sorted())
    }

    @Test func unknownMethodsAreStillNotFound() async throws {
        let owner = try ListOwner(store: SQLiteTodoStore())
        let client = OwnerClient(owner: owner)
        for name in ["todo.fly", "rpc.other", "", "TODO.ADD"] {
            let error = await client.error(#"{"jsonrpc":"2.0","id":1,"method":"\#(name)"}"#)
            #expect(error == RPCError.methodNotFound(name))
            #expect(error?.code == -32601 && error?.name == "protocol.methodNotFound")
        }
    }

    /// Inside a transaction, methods that are not transactable are refused by
    /// name, undo and redo with an error of their own, naming the command's index.
    @Test func aTransactionRefusesWhatItMayNotHold() async throws {
        let owner = try ListOwner(store: SQLiteTodoStore())
        let client = OwnerClient(owner: owner)
        func transaction(_ method: String) async -> RPCError? {
            await client.error(
                #"{"jsonrpc":"2.0","id":1,"method":"transaction","params":{"commands":[{"method":"todo.add","params":{"title":"a"}},{"method":"\#(method)"}]}}"#
            )
        }
        for method in ["view.get", "transaction", "todo.fly"] {
            let error = await transaction(method)
            #expect(error == RPCError.invalidParams("\"\(method)\" cannot be part of a transaction").inTransaction(at: 1))
        }
        for method in ["todo.undo", "todo.redo"] {
            let error = await transaction(method)
            #expect(error?.name == "transaction.undoNotAllowed" && error?.data?.index == 1, "\(String(describing: error))")
        }
    }
}
