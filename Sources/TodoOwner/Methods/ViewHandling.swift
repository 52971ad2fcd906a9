import TodoProtocol
import TodoViewModels
import TodoViewState

// Reading views, subscribing to them and changing their options.

extension GetListView: OwnerMethod {
    static func answer(_ selection: ViewSelection, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<TodoListState> {
        let id = try owner.viewID(for: selection)
        defer { owner.viewModel.closeView(id) }
        let definition = try OwnerState.definition(of: selection, fields: owner.viewModel.fields)
        let state = try owner.viewModel.openView(id, definition: definition)
        return OwnerState.Answer(result: state, durableAt: owner.revision)
    }
}

extension SubscribeListView: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<Result> {
        let (result, durableAt) = try owner.subscribe(params, connection: cause.connection)
        return OwnerState.Answer(result: result, durableAt: durableAt, subscription: result.subscription)
    }
}

extension UnsubscribeListView: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<NoParams> {
        try owner.unsubscribe(params.subscription, connection: cause.connection)
        return OwnerState.Answer(result: NoParams(), durableAt: 0)
    }
}

extension SetViewOptions: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<NoParams> {
        OwnerState.Answer(result: NoParams(), durableAt: try owner.setOptions(params, cause: cause))
    }
}

extension SaveView: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<NamedViewSummary> {
        let (summary, durableAt) = try owner.saveView(params, cause: cause)
        return OwnerState.Answer(result: summary, durableAt: durableAt)
    }
}

extension ListViews: OwnerMethod {
    static func answer(_: NoParams, cause: Cause, owner: inout OwnerState) -> OwnerState.Answer<Result> {
        OwnerState.Answer(result: Result(views: owner.viewModel.namedViews.map(NamedViewSummary.init)), durableAt: owner.revision)
    }
}

extension RemoveView: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<NoParams> {
        OwnerState.Answer(result: NoParams(), durableAt: try owner.removeView(params.name, cause: cause))
    }
}

extension ParseDate: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<Result> {
        OwnerState.Answer(result: Result(try owner.viewModel.previewDate(params.text)), durableAt: 0)
    }
}

extension GetAddPrompt: OwnerMethod {
    static func answer(_: NoParams, cause: Cause, owner: inout OwnerState) -> OwnerState.Answer<AddPromptViewModel> {
        OwnerState.Answer(result: owner.viewModel.addPrompt, durableAt: 0)
    }
}
