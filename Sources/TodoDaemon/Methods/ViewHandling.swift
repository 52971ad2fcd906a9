import TodoProtocol
import TodoViewModels

// Reading views, subscribing to them and changing their options.

extension GetListView: OwnerMethod {
    static func answer(_ selection: ViewSelection, cause: Cause, owner: ListOwner) throws -> ListOwner.Answer<TodoListState> {
        let id = try owner.viewID(for: selection)
        defer { owner.viewModel.closeView(id) }
        let state = owner.viewModel.openView(id, filter: selection.filter ?? .all, sort: selection.sort ?? .created)
        return ListOwner.Answer(result: state, durableAt: owner.revision)
    }
}

extension SubscribeListView: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: ListOwner) throws -> ListOwner.Answer<Result> {
        let (result, durableAt) = try owner.subscribe(params, connection: cause.connection)
        return ListOwner.Answer(result: result, durableAt: durableAt, subscription: result.subscription)
    }
}

extension UnsubscribeListView: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: ListOwner) throws -> ListOwner.Answer<NoParams> {
        try owner.unsubscribe(params.subscription, connection: cause.connection)
        return ListOwner.Answer(result: NoParams(), durableAt: 0)
    }
}

extension SetViewOptions: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: ListOwner) throws -> ListOwner.Answer<NoParams> {
        ListOwner.Answer(result: NoParams(), durableAt: try owner.setOptions(params, cause: cause))
    }
}

extension GetAddPrompt: OwnerMethod {
    static func answer(_: NoParams, cause: Cause, owner: ListOwner) -> ListOwner.Answer<AddPromptViewModel> {
        ListOwner.Answer(result: owner.viewModel.addPrompt, durableAt: 0)
    }
}
