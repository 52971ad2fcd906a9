import TodoProtocol
import TodoViewModels

// The wire form of what the view models answer with. Here, on the daemon's
// side, rather than in TodoProtocol: these values come out of the view
// models' logic (a view's definition holds a parsed query), and TodoProtocol
// stays free of it, so that todoctl links the wire types without the logic.

extension NamedViewSummary {
    /// A named view as `view.list` and `view.save` give it: what it shows
    /// (its query in canonical form) and its counts.
    init(_ view: NamedView) {
        self.init(
            name: view.name, query: view.definition.query.description, filter: view.definition.filter,
            sort: view.definition.sort, grouping: view.definition.grouping, itemsLeft: view.properties.itemsLeft,
            activeCount: view.properties.activeCount, overdueCount: view.properties.overdueCount,
            dueTodayCount: view.properties.dueTodayCount)
    }
}

extension ItemDetails {
    /// One item in full, as `todo.get` gives it.
    init(_ details: TodoItemDetails) {
        self.init(
            item: details.row,
            notes: details.notes.map { ItemNote(number: $0.number, text: $0.text, added: $0.added, addedText: $0.addedText) },
            changes: details.changes.map { FieldChangeTime(field: $0.field, at: $0.at, text: $0.text) },
            lines: details.lines)
    }
}

extension ParseDate.Result {
    /// What a typed date means now, as `date.parse` says it.
    init(_ preview: DatePreview) {
        self.init(iso: preview.iso, kind: preview.kind, worded: preview.worded, dueText: preview.dueText)
    }
}
