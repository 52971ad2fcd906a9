import TodoInterchange
import TodoModel
import TodoProtocol
import TodoViewModels

extension ApplySync: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<Result> {
        var changes = TodoListViewModel.SyncChanges()
        changes.text = params.text
        changes.complete = params.complete ?? []
        changes.remove = params.remove ?? []
        changes.renames = (params.rename ?? []).map { ($0.from, $0.to) }
        guard changes.renames.isEmpty || (changes.text.isEmpty && changes.complete.isEmpty && changes.remove.isEmpty) else {
            throw RPCError.invalidParams("rename comes alone: send text, complete and remove in another call")
        }
        let expected = (params.expect ?? []).map { (uid: $0.uid, text: $0.text) }
        changes.leftOut = owner.viewModel.outdated(expected)
        let outdated = expected.map(\.uid).filter { changes.leftOut.contains(ExternalIdentity.normalized($0)) }
        let plan = try owner.viewModel.planSync(changes)
        let skipped = plan.entries.filter { $0.action == .skip }.map { "\($0.source): \($0.remarks.joined(separator: "; "))" }
        let removed = (plan.step?.changes ?? []).count { $0.after == nil }
        // What the call names, as it exports once applied (read in this
        // same turn: no later edit can be in it).
        func named(_ viewModel: TodoListViewModel) -> [Version] {
            let identities = (changes.complete + expected.map(\.uid)).filter { !changes.leftOut.contains(ExternalIdentity.normalized($0)) }
            let found = viewModel.itemIDs(withIdentities: identities)
            let ids = plan.entries.compactMap(\.id) + identities.compactMap { found[$0] }
            return viewModel.exportedVersions(of: ids).filter { !changes.leftOut.contains(ExternalIdentity.normalized($0.uid)) }
                .map { Version(uid: $0.uid, text: $0.text) }
        }
        guard plan.step != nil else {
            return OwnerState.Answer(
                result: Result(
                    added: 0, updated: 0, removed: 0, skipped: skipped, done: nil, outdated: outdated, exported: named(owner.viewModel),
                    revision: owner.revision),
                durableAt: owner.revision)
        }
        var synced = cause
        synced.origin = origin
        let (outcome, durableAt) = try owner.perform(.applyImport(plan), cause: synced)
        return OwnerState.Answer(
            result: Result(
                added: plan.count(.add), updated: plan.count(.update), removed: removed, skipped: skipped, done: outcome.description,
                outdated: outdated, exported: named(owner.viewModel), revision: owner.revision),
            durableAt: durableAt)
    }
}

extension SyncLeaseMethod: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<Result> {
        OwnerState.Answer(result: Result(granted: owner.holdsSyncLease), durableAt: owner.revision)
    }
}
