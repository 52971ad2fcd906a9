import TodoModel
import TodoProtocol
import TodoViewModels

// The commands on one item, as the view model's commands.

extension AddTodo: CommandMethod {
    static func command(_ params: Params, owner: ListOwner) throws -> TodoCommand {
        .add(title: params.title, due: try owner.due(params.due))
    }
}

extension EditTodo: CommandMethod {
    static func command(_ params: Params, owner: ListOwner) -> TodoCommand {
        .edit(TodoID(params.id), title: params.title)
    }
}

extension SetTodoDone: CommandMethod {
    static func command(_ params: Params, owner: ListOwner) -> TodoCommand {
        .setDone(TodoID(params.id), params.done)
    }
}

extension SetTodoDue: CommandMethod {
    static func command(_ params: Params, owner: ListOwner) throws -> TodoCommand {
        .setDue(TodoID(params.id), try owner.due(params.due))
    }
}

extension RemoveTodo: CommandMethod {
    static func command(_ params: Params, owner: ListOwner) -> TodoCommand {
        .delete(TodoID(params.id))
    }

    /// The id of the item that is gone.
    static func result(of outcome: CommandOutcome, params: Params) -> Result {
        Result(id: params.id)
    }
}
