/// The rules a title must follow, applied before anything is stored.
///
/// Titles are trimmed rather than refused for stray spaces, because a user who
/// types `todoctl add "  milk "` means "milk". A title that is blank after
/// trimming, too long, or spans several lines is refused with a reason a person
/// can act on; nothing is silently truncated.
public enum TodoTitle {
    /// The longest title accepted, in characters (extended grapheme clusters).
    public static let maximumLength = 500

    /// Returns the title as it will be stored, or throws why it cannot be.
    public static func validated(_ raw: String) throws(TodoError) -> String {
        isPlainASCII(raw) ? raw : try validatedByUnicode(raw)
    }

    /// Whether `raw` is a valid title as it stands, seen from its bytes
    /// alone: printable ASCII, not starting or ending with a space, within
    /// the length. Most titles are, and for them the rules by Unicode
    /// (grapheme clusters, each scalar's category) give the same answer at
    /// about a tenth of the cost of a whole add's validation.
    static func isPlainASCII(_ raw: String) -> Bool {
        let bytes = raw.utf8
        guard bytes.count <= maximumLength, let first = bytes.first, let last = bytes.last,
            first != UInt8(ascii: " "), last != UInt8(ascii: " ")
        else { return false }
        return bytes.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// The rules as Unicode words them, for every title.
    static func validatedByUnicode(_ raw: String) throws(TodoError) -> String {
        let title = raw.trimmingWhitespace()
        guard !title.isEmpty else {
            throw .blankTitle
        }
        guard title.count <= maximumLength else {
            throw .titleTooLong(length: title.count, maximum: maximumLength)
        }
        guard !title.breaksTheLine else {
            throw .titleHasControlCharacters
        }
        return title
    }
}

extension String {
    /// Whether the text would not show as one line: control characters (\n,
    /// \r, NEL, …) and Unicode's line and paragraph separators (U+2028, U+2029).
    var breaksTheLine: Bool {
        unicodeScalars.contains {
            switch $0.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: true
            default: false
            }
        }
    }
}

extension StringProtocol {
    /// The string without leading and trailing white space (spaces, tabs, line breaks),
    /// by Unicode's definition rather than ASCII's, so a no-break space counts too.
    public func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }),
            let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
