import FoundationEssentials
import TodoModel
import TodoViewState

/// Declared fields changing while the list runs: todod.conf re-read on SIGHUP.
extension TodoListViewModel {
    /// Replaces the declared fields. Values are never touched: a field whose
    /// declaration is removed keeps its values as orphans (shown raw,
    /// exported as they came), and declaring it again brings them back.
    /// Every view's query is read again with the new fields (a field's
    /// kind may have changed, or a query that named an undeclared field may
    /// read now), its rows re-worded (labels may have changed), and sent
    /// whole. Nothing is stored: a named view keeps its stored text.
    public func replaceFields(_ catalog: FieldCatalog) -> ListChangeOutcome {
        guard catalog != fields else { return ListChangeOutcome(changes: [:], nextEvent: nextEvent) }
        let before = propertiesBefore()
        fields = catalog
        let now = clock.currentTime()
        let viewClock = judgingClock
        var operations: [ViewID: [RowOperation]] = [:]
        for id in Array(views.keys) {
            let definition = views[id]!.definition.rereading(with: catalog)
            // A query that reads may still not compile (a date it names no
            // longer resolves): the view then shows every item, as an unread one does.
            let compiled = (try? compile(definition.query, at: viewClock)) ?? (try! compile(.all, at: viewClock))
            prepareKeys(for: definition)
            views[id]!.redefine(definition, compiled: compiled, items: collection, keys: keys, clock: viewClock)
            operations[id] = [.reset(rows: rows(of: views[id]!, now: now))]
        }
        return ListChangeOutcome(changes: changeSets(since: before, operations: operations), nextEvent: nextEvent)
    }
}
