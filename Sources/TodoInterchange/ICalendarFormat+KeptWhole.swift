import FoundationEssentials
import TodoModel

/// A calendar's title or description longer than todod holds, for a sync.
///
/// A phone may write a title of 600 characters or a description of 150
/// lines; todod holds a title of 500 and 100 notes of 2,000 each. A sync
/// cannot mend the phone's to-do, and leaving it out would hide it. So the
/// item shows it shortened (`shortenedTitle`, `shortenedNotes`) and keeps
/// the property as it came among its kept lines; the export writes that
/// line back for as long as the item still shows exactly its shortened
/// form, so the calendar keeps every character. An edit here of the title
/// or the notes is the person's new value, and goes out as such.
extension ICalendarFormat {
    /// `title` cut to what todod holds, ending in "…".
    static func shortenedTitle(_ title: String) -> String {
        title.count <= TodoTitle.maximumLength ? title : String(title.prefix(TodoTitle.maximumLength - 1)).trimmingWhitespace() + "…"
    }

    /// A description's lines with text, each one note.
    static func descriptionLines(_ description: String) -> [String] {
        description.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    /// Whether todod can hold `description` as notes as it is.
    static func holdsAsNotes(_ description: String) -> Bool {
        let lines = descriptionLines(description)
        return lines.count <= TodoItem.maximumNotes && lines.allSatisfy { $0.count <= NoteText.maximumLength }
    }

    /// The notes todod shows for a description it cannot hold as it is:
    /// each line cut to a note's length; past the most notes an item
    /// holds, the last says how many more lines the calendar has.
    static func shortenedNotes(_ description: String) -> [String] {
        var notes = descriptionLines(description).map { line in
            line.count <= NoteText.maximumLength ? line : String(line.prefix(NoteText.maximumLength - 1)).trimmingWhitespace() + "…"
        }
        if notes.count > TodoItem.maximumNotes {
            let more = notes.count - (TodoItem.maximumNotes - 1)
            notes = Array(notes.prefix(TodoItem.maximumNotes - 1)) + ["… and \(more) more lines, kept whole for the calendar"]
        }
        return notes
    }

    /// The kept line named `name` (`SUMMARY`, `DESCRIPTION`) that `item`
    /// still shows as `shown` (its shortened form), to write in its place.
    static func keptWhole(_ name: String, of item: TodoItem, whileShowing shown: (String) -> Bool) -> String? {
        guard let line = item.foreign.icalendar.first(where: { Self.name(of: $0) == name }),
            let parsed = try? ContentLine.parse(line).first, shown(ContentLine.unescaped(parsed.value))
        else { return nil }
        return line
    }

    /// The kept `DESCRIPTION` while the item's notes begin with its
    /// shortened form: as it came, with the notes added here since after
    /// it (a note added must not cost the calendar the lines it hides).
    static func keptDescription(of item: TodoItem) -> String? {
        guard let line = item.foreign.icalendar.first(where: { Self.name(of: $0) == "DESCRIPTION" }),
            let parsed = try? ContentLine.parse(line).first
        else { return nil }
        let whole = ContentLine.unescaped(parsed.value)
        let shown = shortenedNotes(whole)
        let notes = item.notes.map(\.text)
        guard notes.count >= shown.count, Array(notes.prefix(shown.count)) == shown else { return nil }
        let added = notes.dropFirst(shown.count)
        return added.isEmpty ? line : "DESCRIPTION:" + ContentLine.escaped(([whole] + added).joined(separator: "\n"))
    }

    /// The names of the kept lines that stand for a modelled property
    /// only while the item shows them shortened: never written as kept.
    static let keptWholeNames: Set<String> = ["SUMMARY", "DESCRIPTION"]
}
