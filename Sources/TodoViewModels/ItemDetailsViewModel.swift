import FoundationEssentials
import TodoInterchange
import TodoModel
import TodoViewState

/// One item in full, worded for `todoctl show`: its row, its notes
/// numbered as `todo.removeNote` takes them, when each field last changed,
/// and one line per fact.
public struct TodoItemDetails: Hashable, Sendable {
    public struct Note: Hashable, Sendable {
        public var number: Int
        public var text: String
        public var added: String
        public var addedText: String
    }

    public struct FieldTime: Hashable, Sendable {
        public var field: String
        public var at: String
        /// "due changed 2026-11-20 14:03 (3 days ago)".
        public var text: String
    }

    public var row: TodoRow
    public var notes: [Note]
    public var changes: [FieldTime]
    public var lines: [String]
}

/// What a typed date means, for `date.parse`.
public struct DatePreview: Hashable, Sendable {
    public var iso: String
    public var kind: String
    public var worded: String
    public var dueText: String
}

extension TodoListViewModel {
    /// The item with `id` in full.
    public func details(of id: TodoID) throws(TodoError) -> TodoItemDetails {
        guard let item = collection[id] else { throw .notFound(id) }
        let now = clock.currentTime()
        let row = row(item, now: now)
        func stamp(_ date: Date) -> String {
            let day = CalendarDay(date, in: clock.timeZone)
            let relative = wording.day(day, today: CalendarDay(now, in: clock.timeZone))
            let time = TimeOfDay(date, in: clock.timeZone)
            let clockText = String(time.description.prefix(5))
            return relative == day.description ? "\(day) \(clockText)" : "\(day) \(clockText) (\(relative))"
        }
        let notes = item.notes.enumerated().map { index, note in
            TodoItemDetails.Note(
                number: index + 1, text: note.text, added: ISODateText.instant(note.addedAt), addedText: stamp(note.addedAt))
        }
        let valueWording = FieldValueWording(wording: wording, today: CalendarDay(now, in: clock.timeZone), fields: fields)
        let values = fields.ordered(item.values)
        // Declared fields that changed, also those since cleared: in the
        // catalog's order, then any others by name.
        let order = Dictionary(fields.declarations.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        let declaredChanged = item.fieldChangedAt.keys.filter { !ItemField.itemFields.contains($0) }.sorted {
            (order[$0.rawValue] ?? Int.max, $0.rawValue) < (order[$1.rawValue] ?? Int.max, $1.rawValue)
        }
        let changed = ItemField.itemFields + declaredChanged
        let changes = changed.compactMap { field -> TodoItemDetails.FieldTime? in
            guard let at = item.fieldChangedAt[field] else { return nil }
            return TodoItemDetails.FieldTime(field: field.rawValue, at: ISODateText.instant(at), text: "\(field.rawValue) changed \(stamp(at))")
        }
        var lines = ["\(item.id)  \(item.title)"]
        lines.append(
            "status      "
                + (item.isDone
                    ? "done" : item.hasExpired(at: now, in: clock.timeZone)
                    ? "expired" : item.isWaiting(at: now, in: clock.timeZone) ? "waiting" : "pending"))
        lines.append("created     " + stamp(item.createdAt))
        lines.append("modified    " + stamp(item.updatedAt))
        if let completed = item.completedAt { lines.append("completed   " + stamp(completed)) }
        if let due = item.due {
            lines.append("due         \(due.worded(in: clock.timeZone, now: now)) (\(wording.due(due, now: now)))"
                + (row.overdue ? ", overdue" : ""))
        }
        if let wait = item.wait { lines.append("wait        " + wait.worded(in: clock.timeZone, now: now)) }
        if let recurrence = item.recurrence { lines.append("repeats     " + recurrence.text) }
        if let priority = item.priority { lines.append("priority    " + priority.letter) }
        if let project = item.project { lines.append("project     " + project) }
        if !item.tags.isEmpty { lines.append("tags        " + item.sortedTags.map { "+" + $0 }.joined(separator: " ")) }
        for (name, _, value) in values {
            // "scheduled   Monday 30 November (tomorrow)"; an orphan says so.
            let label = fields[name].map { $0.isBuiltIn ? $0.name : $0.label } ?? "\(name) (not declared)"
            var text = valueWording.words(value)
            if case .date(let date) = value { text = date.worded(in: clock.timeZone, now: now) + " (\(text))" }
            lines.append(label + String(repeating: " ", count: max(1, 12 - label.count)) + text)
        }
        lines += linkLines(of: item)
        let facts = LinkFacts(blocked: collection.isBlocked(item), blocking: collection.isBlocking(item))
        let today = CalendarDay.dayNumber(of: now, in: clock.timeZone)
        lines.append("urgency     " + String(Urgency.score(of: item, today: today, timeZone: clock.timeZone, facts: facts)))
        lines += Self.keptLines(item.foreign)
        for change in changes { lines.append("            " + change.text) }
        if notes.isEmpty {
            lines.append("notes       none (add one with: todoctl note \(item.id) TEXT)")
        } else {
            lines.append("notes")
            for note in notes { lines.append("  \(note.number). \(note.addedText)  \(note.text)") }
        }
        return TodoItemDetails(row: row, notes: notes, changes: changes, lines: lines)
    }

    /// What holds the item up, what it holds up, and its subtasks, by id:
    /// "blocked     by 3, 5", "blocking    7", "subtasks    8, 9 (1 open)".
    private func linkLines(of item: TodoItem) -> [String] {
        var lines: [String] = []
        let open = item.depends.filter { collection[$0]?.isDone == false }
        if !item.isDone, !open.isEmpty { lines.append("blocked     by " + open.map(\.description).joined(separator: ", ")) }
        let waiting = collection.links.dependents(of: item.id).filter { collection[$0]?.isDone == false }.sorted()
        if !item.isDone, !waiting.isEmpty { lines.append("blocking    " + waiting.map(\.description).joined(separator: ", ")) }
        let children = collection.links.children(of: item.id).sorted()
        if !children.isEmpty {
            let openCount = children.count { collection[$0]?.isDone == false }
            lines.append("subtasks    " + children.map(\.description).joined(separator: ", ") + " (\(openCount) open)")
        }
        return lines
    }

    /// What the item keeps of other programs, so a person sees it is there:
    /// Taskwarrior's attributes with their values, a calendar's properties
    /// and components by name. Values are cut to a length a line can show.
    static func keptLines(_ foreign: ForeignFields) -> [String] {
        func shown(_ text: String) -> String { text.count <= 30 ? text : String(text.prefix(30)) + "…" }
        var lines: [String] = []
        if !foreign.taskwarrior.isEmpty {
            let pairs = foreign.taskwarrior.sorted { $0.key < $1.key }.map { key, value in
                // A string value without its quotes: `scheduled 20261201T230000Z`.
                let plain = value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") ? String(value.dropFirst().dropLast()) : value
                return "\(key) \(shown(plain))"
            }
            lines.append("kept        for Taskwarrior: " + pairs.joined(separator: ", "))
        }
        if !foreign.icalendar.isEmpty {
            lines.append("kept        for calendars: " + foreign.icalendarNames.map(shown).joined(separator: ", "))
        }
        return lines
    }

    /// What `text` means as a date now, in the daemon's time zone.
    public func previewDate(_ text: String) throws(TodoError) -> DatePreview {
        let now = clock.currentTime()
        let date: DueDate
        do throws(NaturalDateError) {
            date = try NaturalDateParser(now: now, timeZone: clock.timeZone).parse(text)
        } catch {
            throw .invalidDate(field: .due, text: text, error)
        }
        let kind = if case .day = date { "day" } else { "moment" }
        return DatePreview(
            iso: ISODateText.date(date), kind: kind, worded: date.worded(in: clock.timeZone, now: now),
            dueText: wording.due(date, now: now))
    }
}
