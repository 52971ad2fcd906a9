/// The rules a note must follow: one line of text, like a title, but longer.
public enum NoteText {
    /// The longest note accepted, in characters.
    public static let maximumLength = 2_000

    /// Returns the note as it will be stored (trimmed), or throws why it cannot be.
    public static func validated(_ raw: String) throws(TodoError) -> String {
        let text = raw.trimmingWhitespace()
        guard !text.isEmpty else { throw .blankNote }
        guard text.count <= maximumLength else { throw .noteTooLong(length: text.count, maximum: maximumLength) }
        guard !text.breaksTheLine else { throw .noteHasControlCharacters }
        return text
    }
}
