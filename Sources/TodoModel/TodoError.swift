/// Why a command on the to-do list was refused.
///
/// Each case carries a message written for the person who typed the command;
/// the protocol layer maps each case to a stable machine-readable name.
public enum TodoError: Error, Equatable, Sendable, CustomStringConvertible {
    case blankTitle
    case titleTooLong(length: Int, maximum: Int)
    case titleHasControlCharacters
    case notFound(TodoID)
    case nothingToUndo
    case nothingToRedo
    case undoInTransaction
    /// The step to undo or redo was stored, but cannot be read back (its
    /// stored form is damaged): refused, so the history is left as it is.
    case unreadableStep(description: String, reason: String)
    /// A due or wait date that is not one of the forms `NaturalDateParser` reads.
    case invalidDate(field: ItemField, text: String, NaturalDateError)
    case invalidRecurrence(RecurrenceError)
    /// Add/modify text whose shorthand could not be read.
    case invalidShorthand(ShorthandError)
    case blankNote
    case noteTooLong(length: Int, maximum: Int)
    case noteHasControlCharacters
    /// `number` is 1-based, as `todoctl show` numbers notes.
    case noteNotFound(TodoID, number: Int, count: Int)
    /// A query that parsed but cannot be used (a regular expression ICU refuses).
    case invalidQuery(String)
    /// A sort that read but cannot be used: it names a field the list does
    /// not declare (sort text is read without the list's fields).
    case invalidSort(String)
    case viewNotFound(String)
    case invalidViewName(String, String)
    case mainViewIsPermanent
    /// An item may have at most `TodoItem.maximumTags` tags and `maximumNotes` notes.
    case tooManyTags(maximum: Int)
    case tooManyNotes(maximum: Int)
    /// There may be at most `maximum` named views.
    case tooManyViews(maximum: Int)
    /// An import file that cannot be imported: where (`line 7`, `task 3`) and why.
    case invalidImport(location: String, message: String)
    /// A planned import no longer fits the list (it changed in between).
    case importOutdated
    /// A link (`depends`, `parent`) that cannot be made: to a missing item,
    /// to the item itself, or closing a cycle (`cycle` names it, first id
    /// repeated last).
    case invalidLink(field: String, problem: LinkProblem)
    /// An error about one word of add/modify text (`depends:99`,
    /// `due:someday`), with the word and where it is.
    indirect case inWord(ShorthandWord, TodoError)

    /// The refusal itself, without the word of add/modify text it is about.
    public var withoutWord: TodoError {
        if case .inWord(_, let error) = self { error } else { self }
    }

    public var description: String {
        switch self {
        case .blankTitle:
            return "The title is blank. Give the to-do item a title with at least one visible character."
        case .titleTooLong(let length, let maximum):
            return "The title is \(length) characters long; the limit is \(maximum). Shorten it."
        case .titleHasControlCharacters:
            return "The title contains a line break or another control character. A title is one line of text."
        case .notFound(let id):
            return "There is no to-do item with id \(id). List the items with `todoctl ls` to see their ids."
        case .nothingToUndo:
            return "There is nothing to undo."
        case .nothingToRedo:
            return "There is nothing to redo: only undone commands can be redone, and a new edit clears them."
        case .undoInTransaction:
            return "Undo and redo cannot be part of a transaction; send them on their own."
        case .unreadableStep(let description, let reason):
            return "The stored step “\(description)” cannot be read back from the database (\(reason)), so it cannot be undone or redone; nothing was changed."
        case .invalidDate(let field, let text, let error):
            return "The \(field.rawValue) date \"\(text)\" cannot be read: \(error)."
        case .invalidRecurrence(let error):
            return "The repetition cannot be read: \(error)."
        case .invalidShorthand(let error):
            return "The text cannot be read \(error)."
        case .blankNote:
            return "The note is blank. A note needs at least one visible character."
        case .noteTooLong(let length, let maximum):
            return "The note is \(length) characters long; the limit is \(maximum). Shorten it, or add it as several notes."
        case .noteHasControlCharacters:
            return "The note contains a line break or another control character. A note is one line of text; add several notes for several lines."
        case .invalidQuery(let reason):
            return "The query cannot be used: \(reason)."
        case .invalidSort(let reason):
            // As the protocol words sort text it cannot read: the same error to a client.
            return "The sort cannot be read: \(reason)."
        case .viewNotFound(let name):
            return "There is no view named \"\(name)\". Save one with `todoctl view save \(name) QUERY`; list them with `todoctl view ls`."
        case .invalidViewName(let name, let problem):
            return "\"\(name)\" cannot name a view: \(problem)."
        case .tooManyTags(let maximum):
            return "An item can have at most \(maximum) tags."
        case .tooManyNotes(let maximum):
            return "An item can have at most \(maximum) notes; remove some with `todoctl note ID --remove N`."
        case .tooManyViews(let maximum):
            return "There can be at most \(maximum) named views; remove one with `todoctl view rm NAME`."
        case .mainViewIsPermanent:
            return "The view \"main\" is the default view and cannot be removed; change what it shows with `todoctl view save main QUERY`."
        case .invalidImport(let location, let message):
            // A problem that is a sentence of its own (a title's) has its full stop.
            return "Nothing was imported: \(location): \(message)" + (message.hasSuffix(".") ? "" : ".")
        case .importOutdated:
            return "Nothing was imported: the list changed while the import was planned. Import again."
        case .invalidLink(let field, let problem):
            return "\(field): \(problem)."
        case .inWord(let word, let error):
            return "At \(word.position) (\(word.text)): \(error)"
        case .noteNotFound(let id, let number, let count):
            let has = count == 0 ? "has no notes" : count == 1 ? "has 1 note" : "has \(count) notes"
            return "Item \(id) \(has); there is no note \(number). See them with `todoctl show \(id)`."
        }
    }
}

/// Why a link between items cannot be made.
public enum LinkProblem: Hashable, Sendable, CustomStringConvertible {
    case missing(TodoID)
    case itself(TodoID)
    case cycle([TodoID])
    /// The tree would be deeper than `ItemLinks.maximumDepth` levels.
    case tooDeep(maximum: Int)
    /// The item would depend on more than `FieldKind.maximumLinks` items.
    case tooMany(maximum: Int)

    /// The items it names: to find the word that asked for the link.
    public var ids: [TodoID] {
        switch self {
        case .missing(let id), .itself(let id): [id]
        case .cycle(let ids): ids
        case .tooDeep, .tooMany: []
        }
    }

    public var description: String {
        switch self {
        case .missing(let id): "there is no item \(id) to link to; nothing was changed"
        case .itself(let id): "item \(id) cannot be linked to itself; nothing was changed"
        case .cycle(let ids):
            // A long cycle is named by its start and end.
            "this would make a cycle, \(Self.path(ids)); nothing was changed"
        case .tooDeep(let maximum): "subtasks go at most \(maximum) levels deep; nothing was changed"
        case .tooMany(let maximum): "an item depends on at most \(maximum) items; nothing was changed"
        }
    }

    private static func path(_ ids: [TodoID]) -> String {
        let words = ids.map(String.init(describing:))
        guard words.count > 20 else { return words.joined(separator: " → ") }
        return words.prefix(10).joined(separator: " → ") + " → … (\(words.count - 20) more) → " + words.suffix(10).joined(separator: " → ")
    }
}
