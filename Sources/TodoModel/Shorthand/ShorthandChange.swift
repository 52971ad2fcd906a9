/// One change that add/modify shorthand asks for, besides the title.
///
/// Dates and recurrences stay the text that was typed: they are resolved
/// later, by the natural-date parser, against the time the command runs.
/// `nil` values clear the field (`priority:` with nothing after the colon).
public enum ShorthandChange: Hashable, Sendable {
    case addTag(String)
    case removeTag(String)
    case setProject(String?)
    case setPriority(Priority?)
    case setDue(String?)
    case setWait(String?)
    case setRecurrence(String?)
    /// A declared field (`scheduled:mon`, `estimate:3`), its value as typed:
    /// checked already, resolved (a date against the clock) later.
    case setValue(FieldDeclaration, String?)
}

extension ShorthandChange {
    /// The field the change sets, by the name errors and `ItemField` use.
    public var fieldName: String {
        switch self {
        case .addTag, .removeTag: ItemField.tags.rawValue
        case .setProject: ItemField.project.rawValue
        case .setPriority: ItemField.priority.rawValue
        case .setDue: ItemField.due.rawValue
        case .setWait: ItemField.wait.rawValue
        case .setRecurrence: ItemField.recurrence.rawValue
        case .setValue(let field, _): field.name
        }
    }
}

/// Which command the shorthand is for: a few words mean different things in each.
public enum ShorthandCommand: Sendable {
    /// `todo.add`: a new item. `-word` is title text (there is no tag to
    /// remove), a key with an empty value is an error (nothing to clear), and a
    /// title is required.
    case add
    /// `todo.modify`: `-tag` removes a tag, `key:` clears the field, and the
    /// title may be empty (it is then left as it was).
    case modify
}
