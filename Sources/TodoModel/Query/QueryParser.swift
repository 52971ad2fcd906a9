import FoundationEssentials

/// Reads tokens into a `Query` by recursive descent.
///
///     query   := or?                      (empty text is `.all`)
///     or      := and ("or" and)*
///     and     := unary (["and"] unary)*   (a term after a term means "and")
///     unary   := ("not" | "!") unary | primary
///     primary := "(" or ")" | term
///
/// So `not` binds tightest, then `and`, then `or`; `and` and `or` group to the left.
///
/// A query is matched against items on every edit and its tree is walked
/// recursively, so its size is bounded: at most `maximumLength` characters,
/// `maximumTokens` tokens, and `maximumDepth` nested parentheses and `not`s.
/// Beyond those a client could make the daemon's stack overflow.
struct QueryParser {
    static let maximumLength = 1024
    static let maximumTokens = 256
    static let maximumDepth = 32

    private let text: QueryText
    private let tokens: [QueryToken]
    private let fields: FieldCatalog
    private let checkDate: (String) throws(NaturalDateError) -> Void
    private var index = 0
    private var depth = 0

    static func parse(
        _ string: String, fields: FieldCatalog, checkingDates checkDate: @escaping (String) throws(NaturalDateError) -> Void
    ) throws(QueryParseError) -> Query {
        if string.count > maximumLength {
            throw QueryParseError(
                position: maximumLength, expected: "the end of the query (at most \(maximumLength) characters)",
                found: "more text")
        }
        // Tabs and line breaks are white space; other control characters
        // (an escape sequence) would reach every terminal that shows the query.
        let isControl = { (scalar: Unicode.Scalar) in
            scalar.properties.generalCategory == .control && !["\t", "\n", "\r"].contains(scalar)
        }
        if let control = string.firstIndex(where: { $0.unicodeScalars.contains(where: isControl) }) {
            throw QueryParseError(
                position: string.distance(from: string.startIndex, to: control), expected: "printable text",
                found: "a control character")
        }
        let text = QueryText(string)
        let tokens = try QueryLexer.tokens(of: text) { QueryKey(spelling: $0) != nil || fieldKey($0, in: fields) != nil }
        var parser = QueryParser(text: text, tokens: tokens, fields: fields, checkDate: checkDate)
        guard !parser.tokens.isEmpty else { return .all }
        if parser.tokens.count > maximumTokens {
            throw QueryParseError(
                position: parser.position(parser.tokens[maximumTokens].start),
                expected: "the end of the query (at most \(maximumTokens) terms and operators)", found: "more")
        }
        let query = try parser.parseOr(context: "a term")
        if let extra = parser.current {
            // Only a `)` can stop the loops above.
            throw QueryParseError(
                position: parser.position(extra.start), expected: Self.endOfQuery,
                found: "\")\" with no \"(\" before it to close")
        }
        return query
    }

    private init(
        text: QueryText, tokens: [QueryToken], fields: FieldCatalog,
        checkDate: @escaping (String) throws(NaturalDateError) -> Void
    ) {
        self.text = text
        self.tokens = tokens
        self.fields = fields
        self.checkDate = checkDate
    }

    private var current: QueryToken? { index < tokens.count ? tokens[index] : nil }

    /// The character position of a scalar offset.
    private func position(_ scalarOffset: Int) -> Int {
        text.characterPosition(scalarOffset)
    }

    private var currentPosition: Int { position(current?.start ?? text.scalars.count) }

    /// What the messages call the place after the last word.
    static let endOfQuery = "the end of the query"

    private var foundDescription: String {
        guard let current else { return Self.endOfQuery }
        return "\"\(current.spelling)\""
    }

    // MARK: Grammar

    /// `context` says what the term is wanted for, for the message when there is none.
    private mutating func parseOr(context: String) throws(QueryParseError) -> Query {
        var query = try parseAnd(context: context)
        while let token = current, token.kind == .or {
            index += 1
            let right = try parseAnd(context: "a term after \"\(token.spelling)\" at \(position(token.start))")
            query = .or(query, right)
        }
        return query
    }

    private mutating func parseAnd(context: String) throws(QueryParseError) -> Query {
        var query = try parseUnary(context: context)
        while let token = current {
            if token.kind == .and {
                index += 1
                query = .and(query, try parseUnary(context: "a term after \"\(token.spelling)\" at \(position(token.start))"))
            } else if startsUnary(token) {
                query = .and(query, try parseUnary(context: "a term"))
            } else {
                break
            }
        }
        return query
    }

    private func startsUnary(_ token: QueryToken) -> Bool {
        switch token.kind {
        case .and, .or, .rightParen: false
        default: true
        }
    }

    private mutating func parseUnary(context: String) throws(QueryParseError) -> Query {
        guard let token = current, token.kind == .not else { return try parsePrimary(context: context) }
        try enter(token)
        defer { depth -= 1 }
        index += 1
        return .not(try parseUnary(context: "a term after \"\(token.spelling)\" at \(position(token.start))"))
    }

    /// One level deeper (a `(` or a `not`); refused beyond `maximumDepth`.
    private mutating func enter(_ token: QueryToken) throws(QueryParseError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw QueryParseError(
                position: position(token.start), expected: "at most \(Self.maximumDepth) nested parentheses and nots",
                found: "\"\(token.spelling)\"")
        }
    }

    private mutating func parsePrimary(context: String) throws(QueryParseError) -> Query {
        guard let token = current, startsUnary(token) else {
            throw QueryParseError(position: currentPosition, expected: context, found: foundDescription)
        }
        index += 1
        switch token.kind {
        case .leftParen:
            try enter(token)
            defer { depth -= 1 }
            let inside = try parseOr(context: "a term inside \"(\" at \(position(token.start))")
            guard let closing = current, closing.kind == .rightParen else {
                throw QueryParseError(
                    position: currentPosition, expected: "\")\" to close \"(\" at \(position(token.start))",
                    found: foundDescription)
            }
            index += 1
            return inside
        case .text(let text): return .text(text)
        case .regex(let pattern): return try regex(pattern, token)
        case .tag(let name): return .tag(try tag(name, token))
        case .withoutTag(let name): return .not(.tag(try tag(name, token)))
        case .field(let key, let value, let valueIsQuoted, let valueStart):
            return try field(key: key, value: value, valueIsQuoted: valueIsQuoted, valueStart: valueStart, token)
        case .overdue: return .overdue
        case .recurring: return .recurring
        case .ready: return .ready
        case .blocked: return .blocked
        case .blocking: return .blocking
        case .rightParen, .and, .or, .not:
            preconditionFailure("not the start of a term")
        }
    }

    // MARK: Terms

    private func regex(_ pattern: String, _ token: QueryToken) throws(QueryParseError) -> Query {
        if let problem = RegexCost.problem(with: pattern) {
            throw QueryParseError(
                position: position(token.start), expected: "a regular expression that matches in linear time",
                found: token.spelling, hint: problem)
        }
        do {
            _ = try Regex(pattern)
        } catch {
            throw QueryParseError(
                position: position(token.start), expected: "a valid regular expression", found: token.spelling,
                hint: "to search for the text itself, put it in quotes")
        }
        return .regex(pattern)
    }

    private func tag(_ name: String, _ token: QueryToken) throws(QueryParseError) -> String {
        guard let problem = TagName.problem(with: name) else { return name }
        let scalarOffset = token.start + 1 + Self.scalarCount(ofFirst: problem.offset, charactersOf: name)
        if case .empty = problem {
            throw QueryParseError(
                position: position(scalarOffset), expected: "a tag name after \"\(token.spelling)\"",
                found: foundAt(scalarOffset), hint: "to search for \"\(token.spelling)\" in titles, put it in quotes")
        }
        throw QueryParseError(
            position: position(scalarOffset), expected: "a tag name", found: "\"\(token.spelling)\" (\(problem))",
            hint: "to search for the text in titles, put it in quotes")
    }

    private func foundAt(_ scalarOffset: Int) -> String {
        guard let token = tokens.first(where: { $0.start >= scalarOffset }) else { return Self.endOfQuery }
        return "\"\(token.spelling)\""
    }

    /// How many scalars the first `count` characters of `text` take: where a
    /// problem found in a name (counted in characters) is in the query.
    private static func scalarCount(ofFirst count: Int, charactersOf text: String) -> Int {
        text.prefix(count).unicodeScalars.count
    }

    private func field(
        key spelling: String, value: String, valueIsQuoted: Bool, valueStart: Int, _ token: QueryToken
    ) throws(QueryParseError) -> Query {
        guard let key = QueryKey(spelling: spelling) else {
            if let (declaration, comparison) = Self.fieldKey(spelling, in: fields) {
                return try fieldTerm(
                    declaration, comparison: comparison, key: spelling, value: value, valueIsQuoted: valueIsQuoted,
                    valueStart: valueStart, token)
            }
            let fieldSpellings = fields.declarations.flatMap(\.spellings)
            throw QueryParseError(
                position: position(token.start),
                expected: "one of the keys \(QueryKey.knownSpellings)"
                    + (fieldSpellings.isEmpty ? "" : ", or the fields \(fieldSpellings.joined(separator: ", "))"),
                found: "\"\(spelling)\"", hint: "to search for \"\(token.spelling)\" in titles, put it in quotes")
        }
        let found = "\"\(token.spelling)\""
        switch key {
        case .project:
            if let problem = ProjectPath.problem(with: value) {
                throw QueryParseError(
                    position: position(
                        valueStart + (valueIsQuoted ? 1 : 0) + Self.scalarCount(ofFirst: problem.offset, charactersOf: value)),
                    expected: "a project path like home.garden", found: "\(found) (\(problem))")
            }
            return .project(value)
        case .priority, .priorityAbove, .priorityBelow:
            let priority: Priority?
            if value.lowercased() == "none" {
                priority = nil
            } else if let letter = Priority(letter: value) {
                priority = letter
            } else {
                throw QueryParseError(position: position(valueStart), expected: "a priority H, M, L or none", found: found)
            }
            switch key {
            case .priorityAbove: return .priorityAbove(priority)
            case .priorityBelow: return .priorityBelow(priority)
            default: return .priority(priority)
            }
        case .due, .dueBefore, .dueAfter:
            try requireValue("date", key: spelling, value: value, valueIsQuoted: valueIsQuoted, valueStart: valueStart, token)
            if key == .due, !valueIsQuoted, value.lowercased() == "none" { return .dueNone }
            try check(date: value, for: nil, valueStart: valueStart)
            switch key {
            case .dueBefore: return .dueBefore(value)
            case .dueAfter: return .dueAfter(value)
            default: return .dueOn(value)
            }
        case .status:
            guard let status = QueryStatus(rawValue: value.lowercased()) else {
                let statuses = QueryStatus.allCases.map(\.rawValue).joined(separator: ", ")
                throw QueryParseError(position: position(valueStart), expected: "a status (\(statuses))", found: found)
            }
            return .status(status)
        }
    }

    // MARK: Declared fields

    /// The declared field a key names (`estimate`, `SCH`, `estimate.above`),
    /// ignoring case, and what follows its first dot, lowercased.
    static func fieldKey(_ spelling: String, in fields: FieldCatalog) -> (FieldDeclaration, comparison: String?)? {
        let parts = spelling.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let declaration = fields.declaration(spelled: parts[0]) else { return nil }
        return (declaration, parts.count > 1 ? parts[1].lowercased() : nil)
    }

    /// `name:value`, `name:none`, or one of the kind's comparisons
    /// (`name.above:2`), the value checked by the field's kind and kept as typed.
    private func fieldTerm(
        _ field: FieldDeclaration, comparison: String?, key spelling: String, value: String, valueIsQuoted: Bool,
        valueStart: Int, _ token: QueryToken
    ) throws(QueryParseError) -> Query {
        let name = field.name
        let comparisons = field.kind.comparisons
        let test: FieldQuery.Test
        switch comparison {
        case nil:
            // As `due:none`: quoted, it is the text "none".
            test = !valueIsQuoted && value.lowercased() == "none" ? .noValue : .equal(value)
        case comparisons?.below: test = .below(value)
        case comparisons?.above: test = .above(value)
        default:
            // At the word after the dot: the field is right, its comparison is not.
            let comparisonStart = token.start + spelling.unicodeScalars.count - comparison!.unicodeScalars.count
            let expected =
                if let comparisons {
                    "\(name), \(name).\(comparisons.below) or \(name).\(comparisons.above) "
                        + "(\(name) is a \(Self.valueNoun(field.kind)))"
                } else {
                    "\(name) (\(name) is text, which has no comparisons)"
                }
            throw QueryParseError(position: position(comparisonStart), expected: expected, found: "\"\(spelling)\"")
        }
        try requireValue(
            Self.valueNoun(field.kind), key: spelling, value: value, valueIsQuoted: valueIsQuoted, valueStart: valueStart,
            token)
        if test == .noValue {
            // Nothing to read.
        } else if field.kind == .date {
            try check(date: value, for: name, valueStart: valueStart)
        } else {
            do throws(FieldValueError) {
                _ = try field.value(of: value, dates: nil)
            } catch {
                let orNone = comparison == nil ? ", or none" : ""
                let expected =
                    switch field.kind {
                    case .number: "a number for \(name), such as 3 or 2.5\(orNone)"
                    case .duration: "a duration for \(name), such as 30min, 2h, 3d, 1w or PT2H\(orNone)"
                    case .item, .items: "an item id for \(name), such as 3\(orNone)"
                    case .text, .date: "one of \(field.allowedValues.joined(separator: ", ")) for \(name)\(orNone)"
                    }
                throw QueryParseError(position: position(valueStart), expected: expected, found: "\"\(token.spelling)\"")
            }
        }
        return .field(FieldQuery(name: name, kind: field.kind, test: test))
    }

    /// What a value of the kind is called in messages: "a number after …".
    private static func valueNoun(_ kind: FieldKind) -> String {
        switch kind {
        case .text: "value"
        case .number: "number"
        case .date: "date"
        case .duration: "duration"
        case .item, .items: "item id"
        }
    }

    /// Refuses an empty value (`noun` says what it should have been: "a
    /// date after …"): quotes with nothing in them, or else what follows the
    /// colon (the end of the query, or a word the shell or the typist set
    /// apart with a space).
    private func requireValue(
        _ noun: String, key spelling: String, value: String, valueIsQuoted: Bool, valueStart: Int, _ token: QueryToken
    ) throws(QueryParseError) {
        guard value.trimmingWhitespace().isEmpty else { return }
        let following = valueIsQuoted ? nil : tokens.first { $0.start >= valueStart }
        var word: String?  // a word that may be the value, not `)` or `or`
        if let following, case .text = following.kind { word = following.spelling }
        throw QueryParseError(
            position: position(valueStart), expected: "a \(noun) after \"\(spelling):\"",
            found: valueIsQuoted ? "\"\(token.spelling)\"" : foundAt(valueStart),
            hint: word.map { "put the \(noun) right after the colon, as in \(spelling):\($0)" })
    }

    /// Refuses date text that can never be resolved, saying why; `field`
    /// names the declared field the date is for (nil for `due`).
    private func check(date value: String, for field: String?, valueStart: Int) throws(QueryParseError) {
        do {
            try checkDate(value)
        } catch {
            let forms = String(NaturalDateError.acceptedForms.dropFirst("expected ".count))
            var expected = forms
            if let field {
                expected =
                    forms.hasPrefix("a date ")
                    ? "a date for \(field), " + forms.dropFirst("a date ".count) : "a date for \(field) (\(forms))"
            }
            throw QueryParseError(
                position: position(valueStart), expected: expected,
                found: "\"\(value)\"" + (error.problem.map { " (\($0))" } ?? ""))
        }
    }
}
