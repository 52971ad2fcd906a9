/// A parsed query: which items `todoctl ls QUERY`, `watch QUERY`, a named
/// view or a protocol view option asks for.
///
/// One grammar for all of them, so a query that works on the command line
/// works saved as a view. Dates stay as the text that was typed (`due:fri`):
/// they are resolved when the query is compiled, because "fri" means a
/// different day next week, and a saved view must follow.
///
/// `description` is the canonical text: keys in their long spelling, explicit
/// `and`, parentheses only where precedence needs them. It parses back to an
/// equal value, so it is what a named view stores and what is shown back.
///
/// The query has no status term unless one was written: whether a plain
/// `todoctl ls +home` shows completed items is the caller's decision
/// (see `mentionsStatus`).
public indirect enum Query: Hashable, Sendable, CustomStringConvertible {
    /// The empty query: every item. Only ever produced alone, for empty text;
    /// its canonical text is the empty string.
    case all
    /// The title contains the text, ignoring case (a bare word or "a phrase").
    case text(String)
    /// The title matches the regular expression, ignoring case.
    case regex(String)
    /// The item has the tag, ignoring case.
    case tag(String)
    /// The item's project is this one or one of its sub-projects, ignoring case.
    case project(String)
    /// The item has exactly this priority; `nil` means none.
    case priority(Priority?)
    /// Priority strictly above; no priority ranks below L.
    case priorityAbove(Priority?)
    /// Priority strictly below; no priority ranks below L.
    case priorityBelow(Priority?)
    /// Due on the day the text names (a time in it is ignored).
    case dueOn(String)
    /// Due before the day or moment the text names.
    case dueBefore(String)
    /// Due after the day (on a later day) or moment the text names.
    case dueAfter(String)
    /// No due date.
    case dueNone
    /// Not done and past due.
    case overdue
    case status(QueryStatus)
    case recurring
    /// Ready to start: not done, not waiting, and not scheduled for a day or
    /// moment still ahead (`scheduled` unset, or its day or moment begun).
    case ready
    /// Open, with a `depends` on an open item.
    case blocked
    /// Open, and an open item `depends` on it.
    case blocking
    /// A term on a declared field (`FieldDeclaration`), by the field's name.
    case field(FieldQuery)
    case not(Query)
    case and(Query, Query)
    case or(Query, Query)

    /// Reads query text. Empty (or blank) text is `.all`.
    ///
    /// Dates (`due.before:fri`) are kept as text, to be resolved when the
    /// query is compiled against a clock; `checkingDates` refuses, here and
    /// with their position, those that can never be resolved. A caller
    /// resolving dates its own way passes a check of its own.
    ///
    /// `fields` are the declared fields whose names (and aliases) are keys
    /// too (`estimate.above:2`, `sch:none`); their values are checked by
    /// each field's kind here, and kept as text like dates.
    public static func parse(
        _ text: String, fields: FieldCatalog = .builtIn,
        checkingDates: @escaping (String) throws(NaturalDateError) -> Void = NaturalDateParser.check
    ) throws(QueryParseError) -> Query {
        try QueryParser.parse(text, fields: fields, checkingDates: checkingDates)
    }

    /// Whether any `status:` term appears, so the caller knows whether to add
    /// its default (typically pending items only).
    public var mentionsStatus: Bool {
        switch self {
        case .status: true
        case .not(let query): query.mentionsStatus
        case .and(let left, let right), .or(let left, let right): left.mentionsStatus || right.mentionsStatus
        default: false
        }
    }

    // MARK: Canonical text

    public var description: String {
        switch self {
        case .all: return ""
        case .text(let text): return Self.quotedIfNeeded(text)
        case .regex(let pattern): return "/" + Self.escapingSlashes(pattern) + "/"
        case .tag(let name): return "+" + name
        case .project(let path): return field(.project, path)
        case .priority(let priority): return field(.priority, priority?.letter ?? "none")
        case .priorityAbove(let priority): return field(.priorityAbove, priority?.letter ?? "none")
        case .priorityBelow(let priority): return field(.priorityBelow, priority?.letter ?? "none")
        case .dueOn(let date): return field(.due, date, quoteNone: true)
        case .dueBefore(let date): return field(.dueBefore, date)
        case .dueAfter(let date): return field(.dueAfter, date)
        case .dueNone: return "due:none"
        case .overdue: return "overdue"
        case .status(let status): return field(.status, status.rawValue)
        case .recurring: return "recurring"
        case .ready: return "ready"
        case .blocked: return "blocked"
        case .blocking: return "blocking"
        case .field(let term): return term.description
        case .not(.tag(let name)): return "-" + name
        case .not(let query): return "not " + query.rendered(atLeast: .not)
        case .and(let left, let right): return left.rendered(atLeast: .and) + " and " + right.rendered(atLeast: .not)
        case .or(let left, let right): return left.rendered(atLeast: .or) + " or " + right.rendered(atLeast: .and)
        }
    }

    /// Binding strength, loosest first.
    private enum Precedence: Int, Comparable {
        case or, and, not, term
        static func < (lhs: Precedence, rhs: Precedence) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private var precedence: Precedence {
        switch self {
        case .or: .or
        case .and: .and
        case .not(.tag): .term
        case .not: .not
        default: .term
        }
    }

    /// The canonical text, in parentheses when it binds more loosely than its place needs.
    private func rendered(atLeast needed: Precedence) -> String {
        precedence < needed ? "(\(description))" : description
    }

    private func field(_ key: QueryKey, _ value: String, quoteNone: Bool = false) -> String {
        Self.keyed(key.canonicalSpelling, value, quoteNone: quoteNone)
    }

    /// `key:value`, the value quoted when it would not read back as itself
    /// (or, with `quoteNone`, as the word `none` rather than the text).
    static func keyed(_ key: String, _ value: String, quoteNone: Bool = false) -> String {
        let needsQuotes = value.isEmpty || value.unicodeScalars.first == "/" || (quoteNone && value.lowercased() == "none")
            || value.unicodeScalars.contains { $0.properties.isWhitespace || "()\"\\".unicodeScalars.contains($0) }
        return key + ":" + (needsQuotes ? Self.quoted(value) : value)
    }

    /// Title text as a bare word when it would read back as the same text, else quoted.
    private static func quotedIfNeeded(_ text: String) -> String {
        let keywords: Set<String> = ["and", "or", "not", "overdue", "recurring", "ready", "blocked", "blocking"]
        // Scalars, not characters, as the lexer reads them (see `QueryText`).
        let scalars = text.unicodeScalars
        let bare = !text.isEmpty && !keywords.contains(text.lowercased())
            && !"+-/!\"".unicodeScalars.contains(scalars.first!)
            && !scalars.contains { $0.properties.isWhitespace || "():\"\\".unicodeScalars.contains($0) }
        return bare ? text : quoted(text)
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { result.unicodeScalars.append("\\") }
            result.unicodeScalars.append(scalar)
        }
        result.unicodeScalars.append("\"")
        return result
    }

    /// The pattern with each `/` written `\/`; a `\x` pair is copied as it is,
    /// mirroring how the lexer reads it.
    private static func escapingSlashes(_ pattern: String) -> String {
        var result = String.UnicodeScalarView()
        var scalars = pattern.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if scalar == "\\" {
                result.append("\\")
                if let escaped = scalars.next() { result.append(escaped) }
            } else if scalar == "/" {
                result.append(contentsOf: "\\/".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}

/// A term on a declared field: `estimate:3`, `size:none`,
/// `estimate.above:2`, `scheduled.before:fri`.
///
/// Values are kept as they were typed, like `due`'s dates, and read by
/// `kind` when the query is compiled: a date (`scheduled:fri`) must follow
/// the clock, and the canonical text then says what was typed (`2h` stays
/// `2h`). The kind is kept with the name, so a compiled query does not need
/// the catalog it was read with; reading the canonical text with the same
/// catalog gives the same term back.
public struct FieldQuery: Hashable, Sendable, CustomStringConvertible {
    public enum Test: Hashable, Sendable {
        /// `name:value`: text equal ignoring case, the same number or
        /// duration, or a date on the day the value names.
        case equal(String)
        /// `name:none`: the item has no value.
        case noValue
        /// `name.below:` (a number or a duration below the value), or for a
        /// date `name.before:`, as `due.before:`.
        case below(String)
        /// `name.above:`, or for a date `name.after:`, as `due.after:`.
        case above(String)
    }

    /// The field's name (never an alias).
    public var name: String
    public var kind: FieldKind
    public var test: Test

    public init(name: String, kind: FieldKind, test: Test) {
        self.name = name
        self.kind = kind
        self.test = test
    }

    /// The canonical text: `estimate.above:2`, `scheduled:"next fri"`.
    public var description: String {
        switch test {
        case .noValue: return name + ":none"
        case .equal(let value): return Query.keyed(name, value, quoteNone: true)
        case .below(let value): return Query.keyed(name + "." + (kind.comparisons?.below ?? "below"), value)
        case .above(let value): return Query.keyed(name + "." + (kind.comparisons?.above ?? "above"), value)
        }
    }
}

/// Which items a `status:` term keeps.
public enum QueryStatus: String, CaseIterable, Hashable, Sendable, Codable {
    /// Not done, not waiting, and not expired.
    case pending
    /// Done.
    case completed
    /// Not done, with a wait date still in the future.
    case waiting
    /// Not done, and past its `until` (hidden, as waiting items are, from
    /// queries that name no status).
    case expired
    /// Everything, whatever the caller's default.
    case all
}
