/// The rules a tag name follows, shared by queries (`+work`) and by the
/// add/modify shorthand, so a tag that can be added can also be searched for.
///
/// A tag is one word of letters, digits, `_` and `-`, not starting with `-`:
/// it has to survive being typed after `+` or `-` on a command line, so it
/// cannot contain spaces, quotes, colons or parentheses, and `--x` must not
/// look like "remove the tag -x".
public enum TagName {
    /// The longest tag accepted, in characters.
    public static let maximumLength = 64

    /// Why a text is not a tag name.
    public enum Problem: Hashable, Sendable, CustomStringConvertible {
        case empty
        case tooLong(length: Int)
        case startsWithDash
        /// The character at `offset` (0-based, in characters) is not allowed.
        case invalidCharacter(Character, offset: Int)

        /// Where in the name the problem is, 0-based.
        public var offset: Int {
            switch self {
            case .empty, .startsWithDash: 0
            case .tooLong: TagName.maximumLength
            case .invalidCharacter(_, let offset): offset
            }
        }

        public var description: String {
            switch self {
            case .empty: "a tag name is empty"
            case .tooLong(let length): "a tag name is \(length) characters long; the limit is \(TagName.maximumLength)"
            case .startsWithDash: "a tag name cannot start with \"-\""
            case .invalidCharacter(let character, _):
                "\"\(character)\" cannot be part of a tag name (letters, digits, \"_\" and \"-\" can)"
            }
        }
    }

    /// `nil` when `name` is a valid tag name, otherwise the first problem found.
    public static func problem(with name: some StringProtocol) -> Problem? {
        guard !name.isEmpty else { return .empty }
        if name.first == "-" { return .startsWithDash }
        for (offset, character) in name.enumerated() where !isAllowed(character) {
            return .invalidCharacter(character, offset: offset)
        }
        guard name.count <= maximumLength else { return .tooLong(length: name.count) }
        return nil
    }

    /// Whether a tag (and a project path's part) may hold `character`.
    public static func isAllowed(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-"
    }
}

/// The rules a project path follows: dot-separated segments such as
/// `home.garden`, each made of the characters a tag may have.
///
/// The dots make the hierarchy: `project:home` also finds `home.garden`. So a
/// segment may not be empty (`home..garden`, `.home`, `home.` would make
/// "sub-project of" ambiguous).
public enum ProjectPath {
    /// The longest path accepted, in characters.
    public static let maximumLength = 128

    /// Why a text is not a project path.
    public enum Problem: Hashable, Sendable, CustomStringConvertible {
        case empty
        case tooLong(length: Int)
        /// The segment starting at `offset` is empty (two dots in a row, or a
        /// leading or trailing dot).
        case emptySegment(offset: Int)
        case invalidCharacter(Character, offset: Int)

        public var offset: Int {
            switch self {
            case .empty: 0
            case .tooLong: ProjectPath.maximumLength
            case .emptySegment(let offset), .invalidCharacter(_, let offset): offset
            }
        }

        public var description: String {
            switch self {
            case .empty: "a project path is empty"
            case .tooLong(let length): "a project path is \(length) characters long; the limit is \(ProjectPath.maximumLength)"
            case .emptySegment: "a project path has an empty part (write parts separated by single dots, like home.garden)"
            case .invalidCharacter(let character, _):
                "\"\(character)\" cannot be part of a project path (letters, digits, \"_\", \"-\" and \".\" between parts can)"
            }
        }
    }

    /// `nil` when `path` is a valid project path, otherwise the first problem found.
    public static func problem(with path: some StringProtocol) -> Problem? {
        guard !path.isEmpty else { return .empty }
        var segmentStart = 0
        var segmentLength = 0
        for (offset, character) in path.enumerated() {
            if character == "." {
                if segmentLength == 0 { return .emptySegment(offset: segmentStart) }
                segmentStart = offset + 1
                segmentLength = 0
            } else if TagName.isAllowed(character) {
                segmentLength += 1
            } else {
                return .invalidCharacter(character, offset: offset)
            }
        }
        if segmentLength == 0 { return .emptySegment(offset: segmentStart) }
        guard path.count <= maximumLength else { return .tooLong(length: path.count) }
        return nil
    }

    /// Whether `path` is `ancestor` or lies under it (`home.garden` under
    /// `home`), ignoring case.
    public static func path(_ path: String, isWithin ancestor: String) -> Bool {
        let path = NameCase.lowercased(path)
        let ancestor = NameCase.lowercased(ancestor)
        return path == ancestor || (path.hasPrefix(ancestor) && path.dropFirst(ancestor.count).first == ".")
    }
}

/// Lower-casing of tag and project names.
public enum NameCase {
    /// `name.lowercased()`, the form tags and projects are compared in,
    /// without Unicode case mapping for ASCII names (almost every one): views
    /// of 100,000 items fold each item's tags and project to match and count them.
    public static func lowercased(_ name: String) -> String {
        var hasUppercase = false
        for byte in name.utf8 {
            if byte >= 0x80 { return name.lowercased() }
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { hasUppercase = true }
        }
        guard hasUppercase else { return name }
        let utf8 = name.utf8
        return String(unsafeUninitializedCapacity: utf8.count) { buffer in
            for (index, byte) in utf8.enumerated() {
                buffer[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            }
            return utf8.count
        }
    }
}
