import FoundationEssentials
import TodoModel

/// Notes in a to-do. todod writes them twice: DESCRIPTION, one a line,
/// for every calendar, and X-TODOD-NOTE, each with its date, for itself.
extension ICalendarFormat {
    static func noteLines(of item: TodoItem) -> [String] {
        guard !item.notes.isEmpty else { return [] }
        return ["DESCRIPTION:" + ContentLine.escaped(item.notes.map(\.text).joined(separator: "\n"))]
            + item.notes.map { note in
                "X-TODOD-NOTE;X-ADDED=\(InterchangeDates.compactUTC(note.addedAt)):" + ContentLine.escaped(note.text)
            }
    }

    /// A calendar where the description was edited keeps the X- lines as
    /// they were (RFC 5545 asks it to), so they are read only while they say
    /// what DESCRIPTION says; else its lines are the notes, a line dated as
    /// the note of its text was, or `date`. todod writes both, so X- lines
    /// without a DESCRIPTION are notes a calendar deleted: there are none.
    static func notes(of lines: [ContentLine], description: String?, at location: String, dated date: Date) throws(ImportProblem)
        -> [TodoNote]
    {
        let ownNotes = lines.filter { $0.name == "X-TODOD-NOTE" }
        var notes: [TodoNote] = []
        var ownDates: [String: Date] = [:]
        for line in ownNotes {
            let added = line.parameters["X-ADDED"].flatMap { InterchangeDates.utcInstant($0) }
            let text = ContentLine.unescaped(line.value)
            if ownDates[text] == nil { ownDates[text] = added ?? date }
        }
        if !ownNotes.isEmpty, description == ownNotes.map({ ContentLine.unescaped($0.value) }).joined(separator: "\n") {
            for line in ownNotes {
                let added = line.parameters["X-ADDED"].flatMap { InterchangeDates.utcInstant($0) }
                let note = try ImportFields.note(ContentLine.unescaped(line.value), at: "\(location), line \(line.lineNumber)")
                notes.append(TodoNote(text: note, addedAt: added ?? date))
            }
        } else if let description {
            for line in description.split(whereSeparator: \.isNewline) where !line.allSatisfy(\.isWhitespace) {
                let note = try ImportFields.note(String(line), at: "\(location), DESCRIPTION")
                notes.append(TodoNote(text: note, addedAt: ownDates[String(line)] ?? date))
            }
        }
        return notes
    }
}
