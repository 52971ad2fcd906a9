import TodoModel

/// What an undo or a redo did, worded for the person who asked: which step,
/// and what it changed, e.g. `undid: delete “milk” (“milk” is back)`.
///
/// Saying only the step (`delete “milk”`) read as if the item had just been
/// deleted, when undoing it had brought it back.
enum UndoWording {
    enum Direction: String {
        case undid, redid
    }

    /// `step` as just applied: for an undo, the inverse of the step undone
    /// (it keeps the description), so its changes are what happened now.
    static func said(_ direction: Direction, _ step: UndoStep, as described: String, due: (DueDate) -> String) -> String {
        "\(direction.rawValue): \(described) (\(effect(of: step.changes, due: due)))"
    }

    /// What `changes`, as just applied, did to the list.
    static func effect(of changes: [ItemChange], due: (DueDate) -> String) -> String {
        if changes.count == 1, let change = changes.first {
            return effect(of: change, due: due)
        }
        let back = changes.filter { $0.before == nil }.count
        let gone = changes.filter { $0.after == nil }.count
        let changed = changes.count - back - gone
        let parts = [
            back > 0 ? "\(items(back)) \(back == 1 ? "is" : "are") back" : nil,
            gone > 0 ? "\(items(gone)) \(gone == 1 ? "is" : "are") gone" : nil,
            changed > 0 ? "\(items(changed)) changed" : nil,
        ].compactMap { $0 }
        return parts.isEmpty ? "nothing changed" : parts.joined(separator: ", ")
    }

    private static func effect(of change: ItemChange, due: (DueDate) -> String) -> String {
        switch (change.before, change.after) {
        case (nil, let item?):
            return "“\(item.title)” is back"
        case (let item?, nil):
            return "“\(item.title)” is gone"
        case (let before?, let after?):
            var parts: [String] = []
            if before.title != after.title { parts.append("“\(before.title)” is “\(after.title)” now") }
            let name = "“\(after.title)”"
            if before.isDone != after.isDone { parts.append("\(name) is \(after.isDone ? "done" : "active")") }
            if before.due != after.due { parts.append(after.due.map { "\(name) is \(due($0))" } ?? "\(name) has no due date") }
            if before.tags != after.tags {
                let tags = after.sortedTags.map { "+" + $0 }.joined(separator: " ")
                parts.append(tags.isEmpty ? "\(name) has no tags" : "\(name) has \(tags)")
            }
            if before.project != after.project { parts.append(after.project.map { "\(name) is in \($0)" } ?? "\(name) has no project") }
            if before.priority != after.priority {
                parts.append(after.priority.map { "\(name) has priority \($0.letter)" } ?? "\(name) has no priority")
            }
            if before.wait != after.wait { parts.append(after.wait == nil ? "\(name) is not waiting" : "\(name) waits again") }
            if before.recurrence != after.recurrence {
                parts.append(after.recurrence.map { "\(name) repeats \($0.text)" } ?? "\(name) does not repeat")
            }
            if before.notes != after.notes {
                let count = after.notes.count
                parts.append("\(name) has \(count == 0 ? "no" : String(count)) \(count == 1 ? "note" : "notes")")
            }
            return parts.isEmpty ? "nothing changed" : parts.joined(separator: ", ")
        case (nil, nil):
            return "nothing changed"
        }
    }

    private static func items(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }
}
