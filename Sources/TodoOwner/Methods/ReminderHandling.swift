import Foundation
import TodoModel
import TodoProtocol
import TodoViewModels

// Snoozing and dismissing reminders on the desktop: changes to every view's
// `desktopReminders`, stored and pushed like a view's new options.

extension SnoozeReminder: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<NoParams> {
        let id = TodoID(params.id)
        let outcome: ListChangeOutcome
        switch (params.minutes, params.until) {
        case (let minutes?, nil): outcome = try owner.viewModel.snoozeReminder(id, params.condition, for: TimeInterval(minutes) * 60)
        case (nil, let text?): outcome = try owner.viewModel.snoozeReminder(id, params.condition, untilText: text)
        default: throw RPCError.invalidParams("give one of \"minutes\" and \"until\"")
        }
        return OwnerState.Answer(result: NoParams(), durableAt: owner.recordReminderChange(outcome, cause: cause))
    }
}

extension DismissReminder: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<NoParams> {
        let outcome = try owner.viewModel.dismissReminder(TodoID(params.id), params.condition)
        return OwnerState.Answer(result: NoParams(), durableAt: owner.recordReminderChange(outcome, cause: cause))
    }
}

extension OwnerState {
    /// Records a snooze or dismissal, and aims the timer at a snooze's end.
    mutating func recordReminderChange(_ outcome: ListChangeOutcome, cause: Cause) -> Int {
        let durableAt = record(outcome.changes, write: outcome.write, applied: outcome.applied, cause: cause)
        if let next = outcome.nextEvent { requestTick(at: next) }
        return durableAt
    }
}
