/// How many terminal columns text occupies: what a screen must know to cut a
/// line without wrapping it, since `String.count` counts characters, and a
/// Japanese or emoji title takes two columns a character.
///
/// It measures grapheme clusters (Swift's `Character`s), as a terminal that
/// understands them draws them: a family emoji joined with zero-width joiners,
/// a flag (two regional indicators) or `e` with a combining accent is one
/// glyph. Terminals that draw each scalar of an emoji sequence apart will
/// show such sequences wider; no width table can know which terminal it is.
///
/// Escape sequences (`ESC [ 1 m` and the like) take no columns.
public enum DisplayWidth {
    /// The columns `text` occupies, escape sequences counting none.
    public static func columns(of text: String) -> Int {
        TerminalTextPiece.pieces(of: text).reduce(0) { total, piece in
            guard case .text(let visible) = piece else { return total }
            return visible.reduce(total) { $0 + columns(of: $1) }
        }
    }

    /// The columns one grapheme cluster occupies: 0, 1 or 2.
    ///
    /// Its first scalar that takes room decides (the rest are marks, joiners
    /// and selectors that draw on it), except that an emoji base followed by
    /// VS16 (U+FE0F, "draw as emoji") is drawn as a two-column emoji.
    public static func columns(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let base = scalars.first(where: { columns(ofScalar: $0) > 0 }) else { return 0 }
        if base.properties.isEmoji, scalars.contains(emojiPresentationSelector) { return 2 }
        return columns(ofScalar: base)
    }

    /// Format characters that terminals draw in a column of their own, as
    /// glibc's `wcwidth` counts them: the soft hyphen and the prepended
    /// concatenation marks (Arabic number signs and the like).
    private static let visibleFormatCharacters: Set<UInt32> = [
        0x00AD, 0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2,
        0x110BD, 0x110CD,
    ]

    /// VS16: the character before it is to be drawn as a (wide) emoji.
    static let emojiPresentationSelector: Unicode.Scalar = "\u{FE0F}"

    /// The columns a scalar takes on its own.
    static func columns(ofScalar scalar: Unicode.Scalar) -> Int {
        let properties = scalar.properties
        if properties.generalCategory == .control { return 0 }
        if EastAsianWide.contains(scalar) || properties.isEmojiPresentation { return 2 }
        if isZeroWidth(scalar) { return 0 }
        return 1
    }

    /// Scalars that draw nothing of their own: combining marks, format
    /// characters (zero-width joiners and spaces, direction marks), variation
    /// selectors and other default-ignorable code points, line and paragraph
    /// separators, and the Hangul vowels and final consonants that join the
    /// syllable before them.
    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .format:
            return !visibleFormatCharacters.contains(scalar.value)
        case .nonspacingMark, .enclosingMark, .lineSeparator, .paragraphSeparator:
            return true
        default:
            return scalar.properties.isDefaultIgnorableCodePoint
                || (0x1160...0x11FF).contains(scalar.value) || (0xD7B0...0xD7FF).contains(scalar.value)
        }
    }
}
