/// Why a query could not be read, and where.
///
/// `position` is a 0-based offset in characters (extended grapheme clusters,
/// as `String.count` counts them) into the query text; it equals the text's
/// length when the problem is that the query ended too soon. A caller can
/// print a caret under the query at that column.
public struct QueryParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 0-based character offset, in `0...query.count`.
    public var position: Int
    /// What the grammar wanted there, e.g. `")" to close "(" at 3`.
    public var expected: String
    /// What was there instead, e.g. `the end of the query` or `"or"`.
    public var found: String
    /// A suggestion for getting what was probably meant, if there is one.
    public var hint: String?

    public init(position: Int, expected: String, found: String, hint: String? = nil) {
        self.position = position
        self.expected = expected
        self.found = found
        self.hint = hint
    }

    /// `at 14: expected ")" to close "(" at 3, found the end of the query`
    public var description: String {
        var text = "at \(position): expected \(expected), found \(found)"
        if let hint { text += "; \(hint)" }
        return text
    }
}
