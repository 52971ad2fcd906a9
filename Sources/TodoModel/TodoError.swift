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
        }
    }
}
