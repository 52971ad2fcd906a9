import FoundationEssentials
import TodoModel

/// Turning a command into the undo step that carries it out, without
/// changing anything yet: `perform` applies the step only once it is planned
/// whole.
extension TodoListViewModel {
    /// The step a command makes and how it moves the history (nil when it
    /// would change nothing), and the item it is about.
    func plan(_ command: TodoCommand, at now: Date) throws(TodoError)
        -> (step: (UndoStep, ListWrite.HistoryChange)?, subject: TodoID?)
    {
        func recorded(_ step: UndoStep?, _ subject: TodoID?) -> ((UndoStep, ListWrite.HistoryChange)?, TodoID?) {
            (step.map { ($0, .record($0)) }, subject)
        }
        let timeZone = clock.timeZone
        let dates = NaturalDateParser(now: now, timeZone: timeZone)
        switch command {
        case .add(let title, let due):
            let step = try collection.add(title: title, edits: due.map { [.due($0)] } ?? [], at: now, in: timeZone)
            return recorded(step, step.changes.first?.id)
        case .addTitled(let title, let due):
            let edits = [try ShorthandChange.setDue(due).resolved(with: dates)]
            let step = try collection.add(title: title, edits: edits, at: now, in: timeZone)
            return recorded(step, step.changes.first?.id)
        case .addText(let text, let due):
            // Nothing at all is a blank title, whatever the shorthand would say.
            if text.allSatisfy(\.isWhitespace) { throw .blankTitle }
            let shorthand: Shorthand
            do { shorthand = try Shorthand.parse(text, for: .add, fields: fields) } catch { throw .invalidShorthand(error) }
            var edits = try Self.resolved(shorthand, with: dates)
            if let due { edits.append(try ShorthandChange.setDue(due).resolved(with: dates)) }
            edits += Self.defaultDue(for: edits, item: nil, in: timeZone, today: dates.today)
            let step = try Self.naming(wordsOf: shorthand) { () throws(TodoError) in
                try collection.add(title: shorthand.title, edits: edits, at: now, in: timeZone)
            }
            return recorded(step, step.changes.first?.id)
        case .modify(let id, let text):
            let shorthand: Shorthand
            do { shorthand = try Shorthand.parse(text, for: .modify, fields: fields) } catch { throw .invalidShorthand(error) }
            var edits = try Self.resolved(shorthand, with: dates)
            edits += Self.defaultDue(for: edits, item: collection[id], in: timeZone, today: dates.today)
            let title = shorthand.title.isEmpty ? nil : shorthand.title
            let step = try Self.naming(wordsOf: shorthand) { () throws(TodoError) in
                try collection.modify(id, title: title, edits: edits, at: now, in: timeZone)
            }
            return recorded(step, id)
        case .edit(let id, let title):
            return recorded(try collection.edit(id, title: title, at: now), id)
        case .setDone(let id, let done):
            return recorded(try collection.setDone(id, done, at: now, in: timeZone), id)
        case .setDue(let id, let due):
            let due = Self.due(due, keepingTheRepetitionOf: collection[id], in: timeZone, today: dates.today)
            return recorded(try collection.setDue(id, due, at: now, in: timeZone), id)
        case .setDueText(let id, let text):
            let typed = try text.map { text throws(TodoError) in
                do throws(NaturalDateError) { return try dates.parse(text) } catch { throw TodoError.invalidDate(field: .due, text: text, error) }
            }
            let due = Self.due(typed, keepingTheRepetitionOf: collection[id], in: timeZone, today: dates.today)
            return recorded(try collection.setDue(id, due, at: now, in: timeZone), id)
        case .addNote(let id, let text):
            return recorded(try collection.addNote(id, text: text, at: now), id)
        case .removeNote(let id, let number):
            return recorded(try collection.removeNote(id, number: number, at: now), id)
        case .delete(let id):
            return recorded(try collection.delete(id), nil)
        case .toggleAll:
            return recorded(collection.toggleAll(at: now, in: timeZone), nil)
        case .clearCompleted:
            return recorded(collection.clearCompleted(), nil)
        case .applyImport(let plan):
            try checkFits(plan)
            return recorded(plan.step, nil)
        case .undo:
            guard let step = history.nextUndo else { throw .nothingToUndo }
            if let reason = step.readFailure { throw .unreadableStep(description: step.description, reason: reason) }
            return ((step.inverse, .undo), nil)
        case .redo:
            guard let step = history.nextRedo else { throw .nothingToRedo }
            if let reason = step.readFailure { throw .unreadableStep(description: step.description, reason: reason) }
            return ((step, .redo), nil)
        }
    }

    /// The changes' edits, each date and repetition read against the
    /// clock; one that cannot be read is refused naming its word
    /// (`due:someday`) and where it is.
    private static func resolved(_ shorthand: Shorthand, with dates: NaturalDateParser) throws(TodoError) -> [FieldEdit] {
        var edits: [FieldEdit] = []
        for (index, change) in shorthand.changes.enumerated() {
            do {
                edits.append(try change.resolved(with: dates))
            } catch {
                guard shorthand.words.indices.contains(index) else { throw error }
                throw .inWord(shorthand.words[index], error)
            }
        }
        return edits
    }

    /// Runs `body`, and names the word of `shorthand` that a refused link
    /// came from (`depends:99`, `parent:3` closing a cycle) with where it is.
    private static func naming<T>(wordsOf shorthand: Shorthand, _ body: () throws(TodoError) -> T) throws(TodoError) -> T {
        do {
            return try body()
        } catch {
            guard case .invalidLink(let field, let problem) = error,
                let word = shorthand.word(settingField: field, mentioning: problem.ids)
            else { throw error }
            throw .inWord(word, error)
        }
    }

    /// A recurring item needs a due date to count from: when edits give an
    /// item a repetition and it would have no due date, it is due the day its
    /// wait ends (it appears that day, due, not overdue: `recur:weekly
    /// wait:mon` is due Monday), or today when it has no wait.
    private static func defaultDue(for edits: [FieldEdit], item: TodoItem?, in timeZone: TimeZone, today: CalendarDay) -> [FieldEdit] {
        var due = item?.due
        var wait = item?.wait
        var recurs = item?.recurrence != nil
        for edit in edits {
            if case .due(let newDue) = edit { due = newDue }
            if case .wait(let newWait) = edit { wait = newWait }
            if case .recurrence(let recurrence) = edit { recurs = recurrence != nil }
        }
        guard recurs && due == nil else { return [] }
        return [.due(Recurrence.startingDue(wait: wait, today: today, in: timeZone))]
    }

    /// The due date `.setDue` and `.setDueText` give an item: clearing a
    /// recurring item's due date makes it due the day its wait ends, or
    /// today, as `defaultDue` does for add and modify, because completing a
    /// recurring item without one would silently end the repetition its row
    /// still shows.
    private static func due(_ due: DueDate?, keepingTheRepetitionOf item: TodoItem?, in timeZone: TimeZone, today: CalendarDay)
        -> DueDate?
    {
        guard due == nil, let item, item.recurrence != nil else { return due }
        return Recurrence.startingDue(wait: item.wait, today: today, in: timeZone)
    }
}
