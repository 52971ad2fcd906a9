import FoundationEssentials
import TodoModel

/// Declared fields changing while the list runs: todod.conf re-read on SIGHUP.
extension TodoListViewModel {
    /// Replaces the declared fields. Values are never touched: a field whose
    /// declaration is removed keeps its values as orphans (shown raw,
    /// exported as they came), and declaring it again brings them back.
    /// Every view is re-worded (labels may have changed) and sent whole.
    public func replaceFields(_ catalog: FieldCatalog) -> ListChangeOutcome {
        guard catalog != fields else { return ListChangeOutcome(changes: [:], nextEvent: nextEvent) }
        let before = propertiesBefore()
        fields = catalog
        let now = clock.currentTime()
        var operations: [ViewID: [RowOperation]] = [:]
        for id in views.keys { operations[id] = [.reset(rows: rows(of: views[id]!, now: now))] }
        return ListChangeOutcome(changes: changeSets(since: before, operations: operations), nextEvent: nextEvent)
    }
}
