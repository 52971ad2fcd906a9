import CanonicalJSON
import TodoModel
import TodoProtocol
import TodoViewModels

extension Transaction: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<Result> {
        try owner.transaction(params, cause: cause)
    }
}

extension OwnerState {
    /// Converts every command as its method alone would (`OwnerMethods.transactable`),
    /// then has the view model apply them all or none.
    mutating func transaction(_ params: Transaction.Params, cause: Cause) throws -> Answer<Transaction.Result> {
        guard !params.commands.isEmpty, params.commands.count <= Transaction.maximumCommands else {
            throw RPCError.invalidParams("\"commands\" must hold 1 to \(Transaction.maximumCommands) commands")
        }
        var commands: [TodoCommand] = []
        for (index, entry) in params.commands.enumerated() {
            do {
                guard let method = OwnerMethods.transactable[entry.method] else {
                    // Undo and redo are commands, refused with an error of their own.
                    if entry.method == Undo.name || entry.method == Redo.name { throw RPCError(TodoError.undoInTransaction) }
                    throw RPCError.invalidParams("\"\(entry.method)\" cannot be part of a transaction")
                }
                commands.append(try command(method, params: entry.params))
            } catch {
                throw Self.rpcError(error).inTransaction(at: index)
            }
        }
        let outcome: TransactionOutcome
        do {
            outcome = try viewModel.perform(transaction: commands)
        } catch {
            throw RPCError(error.error).inTransaction(at: error.index)
        }
        if let next = outcome.nextEvent { requestTick(at: next) }
        let durableAt = record(outcome.changes, write: outcome.write, applied: outcome.applied, cause: cause)
        let entries = outcome.results.map { Transaction.Entry(id: $0.subject?.rawValue, item: $0.row, done: $0.description) }
        return Answer(result: Transaction.Result(results: entries, done: outcome.description), durableAt: durableAt)
    }

    /// One entry's command, its params (part of the transaction's) decoded as its method takes them.
    private func command<M: CommandMethod>(_ method: M.Type, params: JSONValue?) throws -> TodoCommand {
        try M.command(IncomingRequest.decode(params, as: M.Params.self), owner: self)
    }
}
