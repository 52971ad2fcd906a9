import TodoModel
import TodoProtocol
import TodoViewModels

// The commands on one item, as the view model's commands.

extension AddTodo: CommandMethod {
    static func command(_ params: Params, owner: OwnerState) throws -> TodoCommand {
        switch (params.title, params.text) {
        case (let title?, nil):
            // A literal title: only `due` can give it more.
            return params.due.map { .addTitled(title, dueText: $0) } ?? .add(title: title, due: nil)
        case (nil, let text?): return .addText(text, due: params.due)
        default: throw RPCError.invalidParams("give exactly one of \"title\" (taken literally) and \"text\" (read as shorthand)")
        }
    }
}

extension ModifyTodo: CommandMethod {
    static func command(_ params: Params, owner: OwnerState) -> TodoCommand {
        .modify(TodoID(params.id), params.text)
    }
}

extension AddTodoNote: CommandMethod {
    static func command(_ params: Params, owner: OwnerState) -> TodoCommand {
        .addNote(TodoID(params.id), params.text)
    }
}

extension RemoveTodoNote: CommandMethod {
    static func command(_ params: Params, owner: OwnerState) -> TodoCommand {
        .removeNote(TodoID(params.id), number: params.number)
    }
}

extension GetTodo: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<ItemDetails> {
        OwnerState.Answer(result: ItemDetails(try owner.viewModel.details(of: TodoID(params.id))), durableAt: owner.revision)
    }
}

extension EditTodo: CommandMethod {
    static func command(_ params: Params, owner: OwnerState) -> TodoCommand {
        .edit(TodoID(params.id), title: params.title)
    }
}

extension SetTodoDone: CommandMethod {
    static func command(_ params: Params, owner: OwnerState) -> TodoCommand {
        .setDone(TodoID(params.id), params.done)
    }
}

extension SetTodoDue: CommandMethod {
    static func command(_ params: Params, owner: OwnerState) -> TodoCommand {
        .setDueText(TodoID(params.id), params.due)
    }
}

extension RemoveTodo: CommandMethod {
    static func command(_ params: Params, owner: OwnerState) -> TodoCommand {
        .delete(TodoID(params.id))
    }

    /// The id of the item that is gone.
    static func result(of outcome: CommandOutcome, params: Params) -> Result {
        Result(id: params.id)
    }
}
