import FoundationEssentials
import TodoModel
import TodoViewState

/// A list several daemons share (one PostgreSQL database): what another
/// instance stored reaches this one as the `ListWrite` it stored, and is
/// applied here as if it had been planned here.
///
/// Every instance applies the same writes in the same order (the store's
/// revisions), so every instance holds the same list and shows the same
/// rows; each works out its own change sets, for its own subscribers.
extension TodoListViewModel {
    /// Applies a write that is already stored (made by another instance, or
    /// by this one before a restart) and returns each view's change set.
    ///
    /// The write was planned on the state this view model holds now: the
    /// store orders every write after the one before it, and this instance
    /// takes back whatever it planned itself on an older state first.
    public func applyStored(_ write: ListWrite) -> ListChangeOutcome {
        let now = clock.currentTime()
        let propertiesBefore = self.propertiesBefore()
        var operations: [ViewID: [RowOperation]] = [:]
        applyItems(write.changes, at: now, into: &operations)
        switch write.historyChange {
        case .record(let step)?: _ = history.record(step)
        case .undo?: _ = history.undo()
        case .redo?: _ = history.redo()
        case nil: break
        }
        reminders.markFired(write.firedReminders)
        for (key, state) in write.desktopReminders { desktop.restore(key, state) }
        cachedAlerts = nil
        cachedDesktop = nil
        var changes = changeSets(since: propertiesBefore, operations: operations)
        for (name, settings) in write.viewSettings.sorted(by: { $0.key < $1.key }) {
            // A view saved elsewhere shows here as it would have had it been
            // saved here; a query that no longer reads shows every item.
            let definition = ViewDefinition(settings, fields: fields)
            savedViewSettings[name] = settings
            if let redefined = try? define(.shared(name), as: definition) {
                for (view, change) in redefined.changes { changes[view] = change }
            }
        }
        for name in write.removedViews {
            views[.shared(name)] = nil
            savedViewSettings[name] = nil
            changes[.shared(name)] = nil
        }
        let step = UndoStep(description: "", changes: write.changes)
        return ListChangeOutcome(changes: changes, write: nil, applied: nil, nextEvent: nextEvent(of: step, after: now))
    }
}

extension TodoListViewModel {
    /// A new step, marked with the instance that made it (nil for a list of one).
    func stampedWithOrigin(_ step: UndoStep) -> UndoStep {
        var stamped = step
        stamped.origin = origin
        return stamped
    }

    /// A step as undo and redo word it here: `add “x” (from laptop)` when
    /// another instance made it, because undo takes back the list's last
    /// step, whoever made it.
    func worded(_ step: UndoStep) -> String {
        guard let made = step.origin, made != origin else { return step.description }
        return "\(step.description) (from \(made))"
    }
}
