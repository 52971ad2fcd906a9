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
    /// due date moved. Links within the checklist (and the item's own to
    /// it) follow the copies; those to other items stay. The completed
    /// occurrence keeps its own, done. A done subtask that repeats itself is
    /// not copied, nor what is under it: completing it made its own next
    /// occurrence, which is copied in its place (copying both would add one
    /// more every time). Nil when the item does not repeat or its `until`
    /// has come.
    func nextOccurrence(of item: TodoItem, id: TodoID, completedAt now: Date, in timeZone: TimeZone) -> [TodoItem]? {
        guard let recurrence = item.recurrence, let due = item.due else { return nil }
        let nextDue = recurrence.next(after: due, completedAt: now, in: timeZone)
        if let until = item.until, nextDue.sortInstant(in: timeZone) >= until.overdueFrom(in: timeZone) {
            return nil  // the repetition ends with its `until`
        }
        let move = OccurrenceMove(from: due, to: nextDue, in: timeZone)
        var skipped: Set<TodoID> = []
        var subtasks: [TodoItem] = []
        for subtask in descendants(of: item.id).compactMap({ self[$0] }) {  // parents before their subtasks
            // Done before now: one that completing the item completed (as
            // reopening finds it) was copied as the open one it was.
            let doneBefore = subtask.isDone && subtask.completedAt != now
            if skipped.contains(subtask.parent ?? item.id) || doneBefore && subtask.recurrence != nil {
                skipped.insert(subtask.id)
            } else {
                subtasks.append(subtask)
            }
        }
        var copied: [TodoID: TodoID] = [item.id: id]
        for (offset, subtask) in subtasks.enumerated() { copied[subtask.id] = TodoID(id.rawValue + 1 + Int64(offset)) }
        var next = move.copy(of: item, as: id, at: now)
        next.due = nextDue
        if !item.depends.isEmpty { next.values[FieldDeclaration.depends.name] = .items(item.depends.map { copied[$0] ?? $0 }) }
        var occurrence = [next]
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
    /// subtasks, if they are still exactly as completing made them: the
    /// items `nextOccurrence` gives for `item` at its completion instant,
    /// numbered where they stand, with nothing else under them or
    /// depending on them. Nil otherwise: a changed one is the user's now,
    /// and reopening leaves it. (Another item completed at the same
    /// instant, with the same title, made its own occurrence, which differs
    /// in its ids, its fields or its subtasks.)
    func untouchedOccurrence(spawnedBy item: TodoItem, in timeZone: TimeZone) -> [TodoItem]? {
        guard item.recurrence != nil, let completedAt = item.completedAt else { return nil }
        var asCompleted = item
        _ = asCompleted.setDone(false, at: completedAt)
        for candidate in items where candidate.id > item.id && candidate.createdAt == completedAt && candidate.title == item.title {
            guard let expected = nextOccurrence(of: asCompleted, id: candidate.id, completedAt: completedAt, in: timeZone),
                expected.allSatisfy({ self[$0.id] == $0 })
            else { continue }
            let spawned = Set(expected.map(\.id))
            let alone = expected.allSatisfy { made in
                links.children(of: made.id).allSatisfy(spawned.contains) && links.dependents(of: made.id).allSatisfy(spawned.contains)
            }
            return alone ? expected : nil
        }
        return nil
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
