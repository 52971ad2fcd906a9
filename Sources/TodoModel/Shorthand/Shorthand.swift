/// The text of `todo.add` / `todo.modify`, read into a title and changes:
/// `buy milk +errand pri:H due:fri` is the title "buy milk" plus three changes.
///
/// Rules, word by word (words are separated by white space):
/// - `+tag` adds a tag. In `modify`, `-tag` removes one; in `add` a word
///   starting with `-` is title text, since a new item has no tags to remove
///   and titles like "-20% sale" exist. A tag that breaks `TagName`'s rules is
///   an error, not title text, so a typo does not land in the title unnoticed.
///   A lone `+` or `-` is title text.
/// - `project:` (`pro:`), `priority:` (`pri:`), `due:`, `wait:`, `recur:`,
///   keys in any case, set fields. A value may be quoted (`due:"next fri"`,
///   no escapes inside). An empty value clears the field in `modify` and is an
///   error in `add`. `priority:none` also clears.
/// - A declared field (`FieldCatalog`: `scheduled:`/`sch:`, `until:`, and
///   those todod.conf declares) is set the same way; its value is checked
///   against the field's kind and allowed values here, and dates later.
/// - A word shaped `letters:value` whose key is no field is refused, naming
///   the key, so that a misspelt or undeclared field (`estmate:3`) does not
///   land in the title unnoticed. Other words with colons (`10:30`,
///   `https://…`, `note:`, `a-b:c`) are title text: titles are the common
///   case here, unlike in queries.
/// - `--` ends the shorthand: every later word is title text (`-- +1 for x`).
///
/// Title words keep their order, joined by single spaces. The title is not
/// checked against `TodoTitle`'s rules here; the command does that.
public struct Shorthand: Hashable, Sendable {
    public var title: String
    public var changes: [ShorthandChange]
    /// The word each change was read from, by the change's index (empty
    /// when the changes were not read from text).
    public var words: [ShorthandWord]

    public init(title: String, changes: [ShorthandChange], words: [ShorthandWord] = []) {
        self.title = title
        self.changes = changes
        self.words = words
    }

    /// The word that set `field` (a link field's name), to name in an
    /// error about it: of several (`depends:4 depends:99`), the one whose
    /// value names one of `ids` (the missing item, the cycle), else the
    /// last, which is the one that stands.
    public func word(settingField field: String, mentioning ids: [TodoID] = []) -> ShorthandWord? {
        let setting = changes.indices.filter { changes[$0].fieldName == field && words.indices.contains($0) }
        let named = Set(ids.map(\.rawValue))
        let mentioning = setting.last { index in
            guard case .setValue(_, let value?) = changes[index] else { return false }
            return value.split(whereSeparator: { !$0.isNumber }).contains { Int64($0).map(named.contains) == true }
        }
        return (mentioning ?? setting.last).map { words[$0] }
    }

    public static func parse(
        _ text: String, for command: ShorthandCommand, fields: FieldCatalog = .builtIn
    ) throws(ShorthandError) -> Shorthand {
        var reader = ShorthandReader(text: text, command: command, fields: fields)
        return try reader.read()
    }
}

private enum ShorthandKey {
    case project, priority, due, wait, recur
    case field(FieldDeclaration)

    /// The own field's key, by `OwnField`'s spellings.
    init?(_ spelling: some StringProtocol) {
        switch OwnField.shorthandKey(spelled: spelling)?.field {
        case .project?: self = .project
        case .priority?: self = .priority
        case .due?: self = .due
        case .wait?: self = .wait
        case .recurrence?: self = .recur
        default: return nil
        }
    }
}

private struct ShorthandReader {
    let characters: [Character]
    let command: ShorthandCommand
    let fields: FieldCatalog
    var index = 0
    var titleWords: [String] = []
    var changes: [ShorthandChange] = []
    var words: [ShorthandWord] = []

    init(text: String, command: ShorthandCommand, fields: FieldCatalog) {
        characters = Array(text)
        self.command = command
        self.fields = fields
    }

    mutating func read() throws(ShorthandError) -> Shorthand {
        var literal = false
        while let (word, start) = nextWord(), !word.isEmpty {
            if literal {
                titleWords.append(word)
            } else if word == "--" {
                literal = true
            } else {
                let changed = changes.count
                try interpret(word, at: start)
                if changes.count > changed { words.append(ShorthandWord(String(characters[start..<index]), at: start)) }
            }
        }
        if command == .add, titleWords.isEmpty {
            throw ShorthandError(position: characters.count, reason: .missingTitle)
        }
        return Shorthand(title: titleWords.joined(separator: " "), changes: changes, words: words)
    }

    /// The next run of non-space characters, and where it starts.
    mutating func nextWord() -> (String, Int)? {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
        guard index < characters.count else { return nil }
        let start = index
        while index < characters.count, !characters[index].isWhitespace { index += 1 }
        return (String(characters[start..<index]), start)
    }

    mutating func interpret(_ word: String, at start: Int) throws(ShorthandError) {
        if word.count > 1, word.first == "+" || (word.first == "-" && command == .modify) {
            let name = String(word.dropFirst())
            if let problem = TagName.problem(with: name) {
                throw ShorthandError(position: start + 1 + min(problem.offset, name.count), reason: .invalidTag(word, problem))
            }
            changes.append(word.first == "+" ? .addTag(name) : .removeTag(name))
            return
        }
        guard let colon = word.firstIndex(of: ":") else {
            titleWords.append(word)
            return
        }
        let spelling = word[..<colon]
        guard let key = ShorthandKey(spelling) ?? fields.declaration(spelled: spelling).map(ShorthandKey.field) else {
            let value = word[word.index(after: colon)...]
            if Self.looksLikeAField(key: spelling, value: value) {
                throw ShorthandError(position: start, reason: .undeclaredField(String(spelling)))
            }
            titleWords.append(word)
            return
        }
        let keySpelling = String(word[..<colon])
        var valueStart = start + keySpelling.count + 1
        var value = String(word[word.index(after: colon)...])
        if value.first == "\"" {
            value = try quotedValue(openingAt: valueStart)
            valueStart += 1
        }
        let cleared = value.isEmpty
        if cleared, command == .add {
            throw ShorthandError(position: valueStart, reason: .emptyValue(key: keySpelling))
        }
        switch key {
        case .project:
            if !cleared, let problem = ProjectPath.problem(with: value) {
                throw ShorthandError(
                    position: valueStart + min(problem.offset, value.count), reason: .invalidProject(value, problem))
            }
            changes.append(.setProject(cleared ? nil : value))
        case .priority:
            if cleared || value.lowercased() == "none" {
                if command == .add {
                    throw ShorthandError(position: valueStart, reason: .emptyValue(key: keySpelling))
                }
                changes.append(.setPriority(nil))
            } else if let priority = Priority(letter: value) {
                changes.append(.setPriority(priority))
            } else {
                throw ShorthandError(position: valueStart, reason: .invalidPriority(value))
            }
        case .due: changes.append(.setDue(cleared ? nil : value))
        case .wait: changes.append(.setWait(cleared ? nil : value))
        case .recur: changes.append(.setRecurrence(cleared ? nil : value))
        case .field(let field):
            if !cleared, field.kind == .items {
                guard FieldKind.linkChange(value) != nil else {
                    throw ShorthandError(position: valueStart, reason: .invalidValue(field.name, FieldKind.linkChangeError(value)))
                }
            } else if !cleared {
                do { _ = try field.value(of: value, dates: nil) } catch {
                    throw ShorthandError(position: valueStart, reason: .invalidValue(field.name, error))
                }
            }
            changes.append(.setValue(field, cleared ? nil : value))
        }
    }

    /// `estmate:3`: lowercase letters, a colon, and a value that is not a
    /// path (`https://…`) or empty (`note:`), which are title text.
    static func looksLikeAField(key: Substring, value: Substring) -> Bool {
        !key.isEmpty && key.count <= 32 && key.allSatisfy { $0.isASCII && $0.isLetter } && !value.isEmpty
            && value.first != "/"
    }

    /// Reads `"…"` starting at `opening` (it may run across spaces), leaving
    /// `index` just after the closing quote.
    mutating func quotedValue(openingAt opening: Int) throws(ShorthandError) -> String {
        guard let closing = characters[(opening + 1)...].firstIndex(of: "\"") else {
            throw ShorthandError(position: characters.count, reason: .unterminatedQuote)
        }
        index = closing + 1
        return String(characters[(opening + 1)..<closing])
    }
}
