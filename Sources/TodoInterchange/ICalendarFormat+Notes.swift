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
        let ownNotes = lines.filter { $0.name == "X-TODOD-NOTE" }.map { line in
            (line: line, text: ContentLine.unescaped(line.value),
             added: line.parameters["X-ADDED"].flatMap { InterchangeDates.utcInstant($0) } ?? date)
        }
        var notes: [TodoNote] = []
        if !ownNotes.isEmpty, description == ownNotes.map(\.text).joined(separator: "\n") {
            for own in ownNotes {
                let note = try ImportFields.note(own.text, at: "\(location), line \(own.line.lineNumber)")
                notes.append(TodoNote(text: note, addedAt: own.added))
            }
        } else if let description {
            let ownDates = Dictionary(ownNotes.map { ($0.text, $0.added) }, uniquingKeysWith: { first, _ in first })
            for line in description.split(whereSeparator: \.isNewline) where !line.allSatisfy(\.isWhitespace) {
                let note = try ImportFields.note(String(line), at: "\(location), DESCRIPTION")
                notes.append(TodoNote(text: note, addedAt: ownDates[String(line)] ?? date))
            }
        }
        return notes
    }
}
