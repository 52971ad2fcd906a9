import FoundationEssentials
import TodoModel
import TodoViewState

/// Words items as rows at one moment, with today's date found once for
/// many rows rather than once or twice per row.
///
/// Building rows is most of opening a view (for 100,000 items, four fifths
/// of it: every date worded, every tag list sorted, every field summed up in
/// words). Building them on two cores at once gained a tenth, not a half:
/// the threads contend for the same reference counts and the allocator.
struct RowBuilder: Sendable {
    let wording: DateWording
    let now: Date
    let today: CalendarDay
    let todayNumber: Int
    /// Whether rows carry their group (the view groups by project).
    let grouped: Bool
    let valueWording: FieldValueWording

    init(wording: DateWording, now: Date, grouped: Bool, fields: FieldCatalog) {
        self.wording = wording
        self.now = now
        self.grouped = grouped
        todayNumber = CalendarDay.dayNumber(of: now, in: wording.timeZone)
        today = CalendarDay(dayNumber: todayNumber)
        valueWording = FieldValueWording(wording: wording, today: today, fields: fields)
    }

    /// `TodoItem.isOverdue(at:in:)` with today's day number known.
    func isOverdue(_ item: TodoItem) -> Bool {
        guard !item.isDone, let due = item.due else { return false }
        switch due {
        case .day(let day): return todayNumber > day.dayNumber
        case .moment(let date): return now >= date
        }
    }

    /// `item`'s row. `key` is the item's sort key as the view placed it
    /// (its blocked and blocking state, its depth); `tree` says the view
    /// shows the tree (rows then carry their depth), `context` that the row
    /// is only the path to a matching subtask.
    func row(_ item: TodoItem, key: SortKeys.Key? = nil, tree: Bool = false, context: Bool = false) -> TodoRow {
        let timeZone = wording.timeZone
        let waiting = item.isWaiting(at: now, in: timeZone)
        let tags = item.sortedTags
        let created = ISODateText.instant(item.createdAt)
        var fieldsText = ListWording.fields(of: item, sortedTags: tags)
        var values: [String: RowFieldValue]?
        var valueTexts: [String: String]?
        if !item.values.isEmpty {
            var raw: [String: RowFieldValue] = [:]
            var worded: [String: String] = [:]
            for (name, field, value) in valueWording.fields.ordered(item.values) {
                raw[name] = RowFieldValue(value, field: field)
                let text = valueWording.worded(value, named: name)
                worded[name] = text
                fieldsText += (fieldsText.isEmpty ? "" : " · ") + text
            }
            (values, valueTexts) = (raw, worded)
        }
        return TodoRow(
            id: item.id.rawValue,
            title: item.title,
            done: item.isDone,
            createdText: wording.created(item.createdAt, today: today),
            dueText: item.due.map { wording.due($0, today: today) },
            overdue: isOverdue(item),
            created: created,
            // Most items have not changed since they were made: the same text.
            modified: item.updatedAt == item.createdAt ? created : ISODateText.instant(item.updatedAt),
            completed: item.completedAt.map(ISODateText.instant),
            due: item.due.map(ISODateText.date),
            wait: item.wait.map(ISODateText.date),
            waitText: waiting ? "waiting until " + item.wait!.worded(in: timeZone, now: now) : nil,
            tags: tags,
            project: item.project,
            priority: item.priority?.letter,
            recurrence: item.recurrence?.text,
            noteCount: item.notes.count,
            fieldsText: fieldsText,
            group: grouped ? (item.project ?? ListWording.noProject) : nil,
            values: values, valueTexts: valueTexts,
            blocked: key?.facts.blocked == true ? true : nil, blocking: key?.facts.blocking == true ? true : nil,
            depth: tree && (key?.depth ?? 0) > 0 ? key!.depth : nil, context: context ? true : nil
        )
    }

    /// The rows of the items `order` names, in its order.
    func rows(of order: RowOrder, in items: TodoCollection, keys: SortKeys, tree: Bool, context: Set<TodoID>) -> [TodoRow] {
        var rows: [TodoRow] = []
        rows.reserveCapacity(order.count)
        for id in order {
            items.withItem(id) { rows.append(row($0, key: keys[id], tree: tree, context: !context.isEmpty && context.contains(id))) }
        }
        return rows
    }
}
