import FoundationEssentials

/// What completing a repeating item adds, and reopening it takes back.
extension TodoCollection {
    /// The item that follows a recurring item completed at `now`, then
    /// copies of its subtasks: a copy with the new id `id`, not done, due
    /// one period later (`Recurrence.next`). A wait date keeps its distance
    /// before the due date; notes are kept, because they are about the
    /// task, not one occurrence of it, and so is what other programs keep
    /// with it (an alarm, a user-defined attribute).
    ///
    /// A repeating item's subtasks are its checklist ("weekly review":
    /// inbox zero, plan the week), so they come back with it: each one,
    /// done or not, is copied open under the next occurrence (the ids after
    /// `id`, parents before their subtasks), its dates moved as far as the
    /// due date moved. Their dependencies on each other follow the copies;
    /// those on other items stay. The completed occurrence keeps its own,
    /// done. Nil when the item does not repeat or its `until` has come.
    func nextOccurrence(of item: TodoItem, id: TodoID, completedAt now: Date, in timeZone: TimeZone) -> [TodoItem]? {
        guard let recurrence = item.recurrence, let due = item.due else { return nil }
        let nextDue = recurrence.next(after: due, completedAt: now, in: timeZone)
        if let until = item.until, nextDue.sortInstant(in: timeZone) >= until.overdueFrom(in: timeZone) {
            return nil  // the repetition ends with its `until`
        }
        let move = OccurrenceMove(from: due, to: nextDue, in: timeZone)
        var next = move.copy(of: item, as: id, at: now)
        next.due = nextDue
        var occurrence = [next]
        let subtasks = descendants(of: item.id).compactMap { self[$0] }
        var copied: [TodoID: TodoID] = [item.id: id]
        for (offset, subtask) in subtasks.enumerated() { copied[subtask.id] = TodoID(id.rawValue + 1 + Int64(offset)) }
        for subtask in subtasks {
            var copy = move.copy(of: subtask, as: copied[subtask.id]!, at: now)
            copy.due = subtask.due.map(move.moved)
            copy.values[FieldDeclaration.parent.name] = subtask.parent.map { .items([copied[$0] ?? $0]) }
            if !subtask.depends.isEmpty {
                copy.values[FieldDeclaration.depends.name] = .items(subtask.depends.map { copied[$0] ?? $0 })
            }
            occurrence.append(copy)
        }
        return occurrence
    }

    /// The occurrence completing `item` added, with the copies of its
    /// subtasks, if all are still as they were made: created at the
    /// completion instant, not done, never changed, and nothing else
    /// under them or depending on them. Nil otherwise: a changed one is
    /// the user's now, and reopening leaves it.
    func untouchedOccurrence(spawnedBy item: TodoItem) -> [TodoItem]? {
        guard item.recurrence != nil, let completedAt = item.completedAt else { return nil }
        func untouched(_ candidate: TodoItem) -> Bool {
            candidate.id > item.id && candidate.createdAt == completedAt && candidate.updatedAt == completedAt
                && !candidate.isDone && candidate.fieldChangedAt.isEmpty
        }
        guard
            let occurrence = items.first(where: { (candidate: TodoItem) -> Bool in
                untouched(candidate) && candidate.title == item.title && candidate.recurrence == item.recurrence
                    && candidate.parent == item.parent
            })
        else { return nil }
        // Its subtasks must be the copies it was made with: one for each of
        // the completed item's, in the same order, numbered after it.
        let subtasks = descendants(of: occurrence.id).compactMap { self[$0] }
        let originals = descendants(of: item.id).compactMap { self[$0] }
        guard subtasks.map(\.title) == originals.map(\.title),
            subtasks.map(\.id) == subtasks.indices.map({ TodoID(occurrence.id.rawValue + 1 + Int64($0)) })
        else { return nil }
        let spawned = Set([occurrence.id] + subtasks.map(\.id))
        for candidate in [occurrence] + subtasks {
            // A subtask or dependent added since makes it no longer as it was made.
            guard candidate.id == occurrence.id || untouched(candidate) else { return nil }
            guard links.children(of: candidate.id).allSatisfy(spawned.contains),
                links.dependents(of: candidate.id).allSatisfy(spawned.contains)
            else { return nil }
        }
        return [occurrence] + subtasks
    }
}

/// How far a repeating item's next occurrence moves its dates: days for a
/// day, seconds for a moment, as far as its due date moved.
struct OccurrenceMove {
    let days: Int
    let seconds: TimeInterval

    init(from due: DueDate, to nextDue: DueDate, in timeZone: TimeZone) {
        let from = due.sortInstant(in: timeZone)
        let to = nextDue.sortInstant(in: timeZone)
        seconds = to.timeIntervalSince(from)
        days = CalendarDay(to, in: timeZone).dayNumber - CalendarDay(from, in: timeZone).dayNumber
    }

    func moved(_ date: DueDate) -> DueDate {
        switch date {
        case .day(let day): .day(day.adding(days: days))
        case .moment(let date): .moment(date.addingTimeInterval(seconds))
        }
    }

    /// `item` as a new open item `id` made at `now`: its words, notes and
    /// declared fields (a scheduled date moved, as a wait date is), without
    /// its due date and repetition, which the caller sets.
    func copy(of item: TodoItem, as id: TodoID, at now: Date) -> TodoItem {
        var values = item.values
        if case .date(let scheduled)? = values[FieldDeclaration.scheduled.name] {
            values[FieldDeclaration.scheduled.name] = .date(moved(scheduled))
        }
        return TodoItem(
            id: id, title: item.title, createdAt: now, tags: item.tags, project: item.project, priority: item.priority,
            notes: item.notes, wait: item.wait.map(moved), recurrence: item.recurrence, values: values, foreign: item.foreign)
    }
}
