import FoundationEssentials
import TodoModel

/// A declared field's value as the formats write it and read it back, for
/// what follows from its kind alone and is the same in every format: numbers,
/// durations, text and its allowed values. Dates are each format's own
/// (Taskwarrior's `20240115T093000Z`, iCalendar's DATE or DATE-TIME,
/// todo.txt's `2024-01-15`), as they are for `due`.
///
/// A value that does not fit its field (a word where a number belongs, a
/// size that is not one of the allowed ones) is not taken as the field's:
/// each reader keeps it where its format keeps what todod does not read
/// (`ForeignFields`, or the todo.txt line's text) and says so, so that
/// nothing is lost because todod.conf and the other program disagree. Only
/// text that breaks todod's rules refuses the file (`ImportFields.valueText`).
enum FieldValueText {
    /// A length of time: ISO 8601 (`PT2H`, as Taskwarrior writes it), todod's
    /// own (`2h`), or whole seconds (`7200`), up to `DurationText.maximumSeconds`.
    static func duration(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return DurationText.seconds(of: String(text))
        }
        guard let seconds = Int(text), seconds <= DurationText.maximumSeconds else { return nil }
        return seconds
    }

    /// Whether `text` is a value `field` takes: any text, or one of its
    /// allowed values as declared. Case counts here, unlike in shorthand: a
    /// value taken in another case would go back to the program changed.
    static func allows(_ text: String, in field: FieldDeclaration) -> Bool {
        field.allowedValues.isEmpty || field.allowedValues.contains(text)
    }

    /// What a value of `field` looks like, for a remark on one that does not
    /// fit: "a number", "one of S, M, L"; `date` says the format's dates.
    static func expected(_ field: FieldDeclaration, date: String) -> String {
        switch field.kind {
        case .text: field.allowedValues.isEmpty ? "text" : "one of " + field.allowedValues.joined(separator: ", ")
        case .number: "a number"
        case .date: date
        case .duration: "a duration (PT2H)"
        case .item, .items: "a link to another item"
        }
    }

    /// The remark on a value that does not fit its field, `what` worded as
    /// its format words others (`size "XL"`, `X-TODOD-SIZE XL`): `size "XL"
    /// not used: not one of S, M, L`.
    static func notUsed(_ what: String, _ field: FieldDeclaration, date: String) -> String {
        "\(what) not used: not \(expected(field, date: date))"
    }
}
