/// One token of a query, with where it is in the text.
struct QueryToken: Equatable {
    enum Kind: Equatable {
        case leftParen
        case rightParen
        case and
        case or
        /// `not`, or a `!` at the start of a token.
        case not
        /// A bare word or a "quoted phrase": the title contains it.
        case text(String)
        /// `/pattern/`, with `\/` already turned into `/`.
        case regex(String)
        /// `+name`; the name is checked by the parser, which can say where it is wrong.
        case tag(String)
        /// `-name`
        case withoutTag(String)
        /// `key:value` or `key:"quoted value"`; `key` as written.
        case field(key: String, value: String, valueIsQuoted: Bool, valueStart: Int)
        case overdue
        case recurring
        case ready
        case blocked
        case blocking
    }

    var kind: Kind
    /// Offsets in Unicode scalars (see `QueryText`) of the token's first
    /// scalar and one past its last; `valueStart` in `.field` counts the same way.
    var start: Int
    var end: Int
    /// The token as written, for messages.
    var spelling: String
}

/// Query text as Unicode scalars, with the way back to character positions.
///
/// The lexer reads scalars, not characters, because a character (a grapheme
/// cluster) can swallow a delimiter: `"` followed by U+0301 is one character,
/// `"́`, and a space followed by it is one character too. Reading scalars, a
/// quote is a quote whatever follows it, so the canonical text, built by
/// joining pieces, always reads back as the same tokens. Positions shown to
/// people are still in characters: each scalar offset maps to the character
/// it is part of.
struct QueryText {
    let scalars: [Unicode.Scalar]
    /// For each scalar offset (and one past the end), the character offset.
    private let characterOffsets: [Int]

    init(_ text: String) {
        var scalars: [Unicode.Scalar] = []
        var offsets: [Int] = []
        var characterCount = 0
        for character in text {
            for scalar in character.unicodeScalars {
                scalars.append(scalar)
                offsets.append(characterCount)
            }
            characterCount += 1
        }
        offsets.append(characterCount)
        self.scalars = scalars
        self.characterOffsets = offsets
    }

    /// The 0-based character position of scalar offset `scalarOffset`, clamped to the text.
    func characterPosition(_ scalarOffset: Int) -> Int {
        characterOffsets[min(max(scalarOffset, 0), characterOffsets.count - 1)]
    }

    func text(_ range: Range<Int>) -> String {
        var string = ""
        string.unicodeScalars.append(contentsOf: scalars[range])
        return string
    }
}

/// Splits query text into tokens.
///
/// The rules, in the order they are tried at the start of a token:
/// - `(` and `)` are tokens of their own, and end any word.
/// - `!` is `not`, wherever a token starts (`!+home`, `!(a or b)`); inside a
///   word it is an ordinary character (`wow!`).
/// - `"` starts a phrase that ends at the next `"`; `\"` and `\\` inside stand
///   for `"` and `\` (any other `\x` is kept as written).
/// - `/` starts a regular expression that ends at the next unescaped `/`; `\/`
///   stands for `/`, any other `\x` is passed to the pattern as written.
/// - Anything else is a word, running to the next white space or parenthesis.
///   A word is a keyword (`and`, `or`, `not`, `overdue`, `recurring`,
///   `ready`, in any case), a tag (`+x`, `-x`), a `key:value` term, or title
///   text. It is read as `key:value` when the part before its first colon
///   looks like a key (ASCII letters, dot-separated) and the value is not
///   empty and does not start with `/`. So `https://example.com` and `12:30` are title text, and
///   `foo:bar` is an unknown key (an error, so typos do not silently search the
///   titles). A value may be quoted: `due:"next friday"`. A known key with
///   nothing after its colon (`due:`, `estimate:`) is a term too, which the
///   parser refuses saying a value is missing.
struct QueryLexer {
    private let text: QueryText
    private var characters: [Unicode.Scalar] { text.scalars }
    private var index = 0
    /// Whether a key-shaped word names a key (the query's own or a declared field's).
    private let isKey: (String) -> Bool

    init(_ text: QueryText, isKey: @escaping (String) -> Bool) {
        self.text = text
        self.isKey = isKey
    }

    static func tokens(of text: QueryText, isKey: @escaping (String) -> Bool) throws(QueryParseError) -> [QueryToken] {
        var lexer = QueryLexer(text, isKey: isKey)
        var tokens: [QueryToken] = []
        while let token = try lexer.next() {
            tokens.append(token)
        }
        return tokens
    }

    /// The character position of the end of the query.
    private var endOfQuery: Int { text.characterPosition(characters.count) }

    private static func endsWord(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar == "(" || scalar == ")"
    }

    private mutating func next() throws(QueryParseError) -> QueryToken? {
        while index < characters.count, characters[index].properties.isWhitespace { index += 1 }
        guard index < characters.count else { return nil }
        let start = index
        switch characters[index] {
        case "(":
            index += 1
            return QueryToken(kind: .leftParen, start: start, end: index, spelling: "(")
        case ")":
            index += 1
            return QueryToken(kind: .rightParen, start: start, end: index, spelling: ")")
        case "!":
            index += 1
            return QueryToken(kind: .not, start: start, end: index, spelling: "!")
        case "\"":
            let phrase = try readQuoted()
            guard !phrase.isEmpty else {
                throw QueryParseError(position: text.characterPosition(start), expected: "text between the quotes", found: "\"\"")
            }
            return QueryToken(kind: .text(phrase), start: start, end: index, spelling: spelling(from: start))
        case "/":
            let pattern = try readPattern()
            guard !pattern.isEmpty else {
                throw QueryParseError(position: text.characterPosition(start), expected: "a pattern between the slashes", found: "//")
            }
            return QueryToken(kind: .regex(pattern), start: start, end: index, spelling: spelling(from: start))
        default:
            return try readWord()
        }
    }

    private func spelling(from start: Int) -> String {
        text.text(start..<index)
    }

    /// Reads `"…"` starting at `index`, leaving `index` after the closing quote.
    private mutating func readQuoted() throws(QueryParseError) -> String {
        let opening = index
        index += 1
        var quoted = ""
        while index < characters.count {
            let character = characters[index]
            if character == "\"" {
                index += 1
                return quoted
            }
            if character == "\\", index + 1 < characters.count, characters[index + 1] == "\"" || characters[index + 1] == "\\" {
                quoted.unicodeScalars.append(characters[index + 1])
                index += 2
            } else {
                quoted.unicodeScalars.append(character)
                index += 1
            }
        }
        throw QueryParseError(
            position: endOfQuery, expected: "\"\\\"\" to close the quote opened at \(text.characterPosition(opening))",
            found: QueryParser.endOfQuery)
    }

    /// Reads `/…/` starting at `index`, leaving `index` after the closing slash.
    private mutating func readPattern() throws(QueryParseError) -> String {
        let opening = index
        index += 1
        var pattern = ""
        while index < characters.count {
            let character = characters[index]
            if character == "/" {
                index += 1
                return pattern
            }
            if character == "\\", index + 1 < characters.count {
                if characters[index + 1] != "/" { pattern.unicodeScalars.append("\\") }
                pattern.unicodeScalars.append(characters[index + 1])
                index += 2
            } else {
                pattern.unicodeScalars.append(character)
                index += 1
            }
        }
        throw QueryParseError(
            position: endOfQuery, expected: "\"/\" to close the pattern opened at \(text.characterPosition(opening))",
            found: QueryParser.endOfQuery)
    }

    private mutating func readWord() throws(QueryParseError) -> QueryToken {
        let start = index
        var word = ""
        var quotedValue: (text: String, start: Int)?
        while index < characters.count, !Self.endsWord(characters[index]) {
            let character = characters[index]
            // `key:"quoted value"`: a quote right after the first colon of a key-shaped word.
            if character == "\"", word.unicodeScalars.last == ":", word.unicodeScalars.filter({ $0 == ":" }).count == 1,
                QueryKey.hasKeyShape(String(word.unicodeScalars.dropLast()))
            {
                let valueStart = index
                quotedValue = (try readQuoted(), valueStart)
                break
            }
            word.unicodeScalars.append(character)
            index += 1
        }
        let spelling = spelling(from: start)
        func token(_ kind: QueryToken.Kind) -> QueryToken {
            QueryToken(kind: kind, start: start, end: index, spelling: spelling)
        }

        if let quotedValue {
            let key = String(word.unicodeScalars.dropLast())
            return token(.field(key: key, value: quotedValue.text, valueIsQuoted: true, valueStart: quotedValue.start))
        }
        switch word.lowercased() {
        case "and": return token(.and)
        case "or": return token(.or)
        case "not": return token(.not)
        case "overdue": return token(.overdue)
        case "recurring": return token(.recurring)
        case "ready": return token(.ready)
        case "blocked": return token(.blocked)
        case "blocking": return token(.blocking)
        default: break
        }
        let scalars = word.unicodeScalars
        if scalars.first == "+" { return token(.tag(String(scalars.dropFirst()))) }
        if scalars.first == "-" { return token(.withoutTag(String(scalars.dropFirst()))) }
        if let colon = scalars.firstIndex(of: ":") {
            let key = String(scalars[..<colon])
            let value = String(scalars[scalars.index(after: colon)...])
            if QueryKey.hasKeyShape(key), value.unicodeScalars.first != "/", !value.isEmpty || isKey(key) {
                let valueStart = start + key.unicodeScalars.count + 1
                return token(.field(key: key, value: value, valueIsQuoted: false, valueStart: valueStart))
            }
        }
        return token(.text(word))
    }
}
