import TodoProtocol
import TodoViewModels

// The commands on the whole list, and undo and redo, as the view model's commands.

extension ToggleAll: CommandMethod {
    static func command(_: NoParams, owner: OwnerState) -> TodoCommand { .toggleAll }
}

extension ClearCompleted: CommandMethod {
    static func command(_: NoParams, owner: OwnerState) -> TodoCommand { .clearCompleted }
}

extension Undo: CommandMethod {
    static func command(_: NoParams, owner: OwnerState) -> TodoCommand { .undo }
}

extension Redo: CommandMethod {
    static func command(_: NoParams, owner: OwnerState) -> TodoCommand { .redo }
}
