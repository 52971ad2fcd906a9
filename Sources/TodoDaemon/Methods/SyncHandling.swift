import TodoModel
import TodoProtocol
import TodoViewModels

extension ApplySync: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: ListOwner) throws -> ListOwner.Answer<Result> {
        let plan = try owner.viewModel.planSync(params.text, removing: params.remove ?? [])
        let skipped = plan.entries.filter { $0.action == .skip }.map { "\($0.source): \($0.remarks.joined(separator: "; "))" }
        let removed = (plan.step?.changes ?? []).count { $0.after == nil }
        guard plan.step != nil else {
            return ListOwner.Answer(
                result: Result(added: 0, updated: 0, removed: 0, skipped: skipped, done: nil), durableAt: owner.revision)
        }
        var synced = cause
        synced.origin = origin
        let (outcome, durableAt) = try owner.perform(.applyImport(plan), cause: synced)
        return ListOwner.Answer(
            result: Result(
                added: plan.count(.add), updated: plan.count(.update), removed: removed, skipped: skipped, done: outcome.description),
            durableAt: durableAt)
    }
}
