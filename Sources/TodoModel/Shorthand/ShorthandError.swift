/// Why add/modify text could not be read, and where.
///
/// `position` is a 0-based offset in characters into the text, like
/// `QueryParseError`'s. Most messages say how to keep the word in the title
/// instead: put it after `--`.
public struct ShorthandError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        case invalidTag(String, TagName.Problem)
        case invalidProject(String, ProjectPath.Problem)
        /// Not H, M, L, none or empty.
        case invalidPriority(String)
        /// A declared field's value that does not fit it (`estimate:lots`).
        case invalidValue(String, FieldValueError)
        /// `estimate:3` where no field `estimate` is declared.
        case undeclaredField(String)
        /// `due:` with nothing to clear (in an add).
        case emptyValue(key: String)
        /// `due:"next fri` with no closing quote.
        case unterminatedQuote
        /// An add with no title words.
        case missingTitle
    }

    public var position: Int
    public var reason: Reason

    public init(position: Int, reason: Reason) {
        self.position = position
        self.reason = reason
    }

    public var description: String {
        let literally = "to keep it in the title, write it after \"--\""
        switch reason {
        case .invalidTag(let word, let problem):
            return "at \(position): \"\(word)\" is not a tag: \(problem); \(literally)"
        case .invalidProject(let path, let problem):
            return "at \(position): \"\(path)\" is not a project: \(problem)"
        case .invalidPriority(let value):
            return "at \(position): \"\(value)\" is not a priority: write H, M, L, or none (or nothing) to clear it"
        case .invalidValue(let name, let error):
            return "at \(position): \(error) (the field \(name))"
        case .undeclaredField(let key):
            // Suggest declaring it only where such a declaration would be taken.
            guard FieldCatalog.problem(withName: key.lowercased()) == nil else {
                return "at \(position): there is no field \"\(key)\"; \(literally)"
            }
            return "at \(position): there is no field \"\(key)\"; declare it in todod.conf (field.\(key.lowercased()) = string), "
                + "or, \(literally)"
        case .emptyValue(let key):
            return "at \(position): \"\(key):\" has no value, and a new item has nothing to clear; \(literally)"
        case .unterminatedQuote:
            return "at \(position): the quoted value has no closing \"\\\"\""
        case .missingTitle:
            return "at \(position): a new item needs a title besides its tags and fields"
        }
    }
}
