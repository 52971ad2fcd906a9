import Foundation
import TodoModel
import TodoProtocol
import TodoViewModels

/// A method that is one `TodoCommand`: the view model carries it out as one
/// undo step. A `transaction` converts its commands the same way, so a
/// command method declared `isTransactable` needs nothing more to be part of one.
protocol CommandMethod: OwnerMethod {
    /// The command a call stands for, its parameters checked (a due date is
    /// read in the daemon's time zone).
    static func command(_ params: Params, owner: OwnerState) throws -> TodoCommand
    /// The result, from what the command did.
    static func result(of outcome: CommandOutcome, params: Params) throws -> Result
}

extension CommandMethod {
    static func answer(_ params: Params, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<Result> {
        let (outcome, durableAt) = try owner.perform(command(params, owner: owner), cause: cause)
        return OwnerState.Answer(result: try result(of: outcome, params: params), durableAt: durableAt)
    }
}

extension CommandMethod where Result == ItemResult {
    /// The row of the item the command was about.
    static func result(of outcome: CommandOutcome, params: Params) throws -> ItemResult {
        guard let row = outcome.row else { throw RPCError.internalError("the command returned no item") }
        return ItemResult(item: row)
    }
}

extension CommandMethod where Result == CommandResult {
    /// What the command did, as undo says it.
    static func result(of outcome: CommandOutcome, params: Params) -> CommandResult {
        CommandResult(done: outcome.description)
    }
}

extension OwnerState {
    /// Applies one command and records it for the writer and the
    /// subscribers: what it did, and the revision its reply waits for.
    mutating func perform(_ command: TodoCommand, cause: Cause) throws -> (outcome: CommandOutcome, durableAt: Int) {
        let outcome = try viewModel.perform(command)
        if let next = outcome.nextEvent { requestTick(at: next) }
        return (outcome, record(outcome.changes, write: outcome.write, applied: outcome.applied, cause: cause))
    }

}
