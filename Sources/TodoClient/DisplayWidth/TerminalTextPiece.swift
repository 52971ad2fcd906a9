/// A stretch of text bound for a terminal: either text it draws, or an escape
/// sequence it obeys (colour, cursor movement, a hyperlink) and never draws.
///
/// Measuring and cutting work on the text pieces only, so a colour code never
/// counts as columns and is never cut in half. Splitting at the scalar level
/// first also keeps a sequence's final letter from fusing with a combining
/// mark that follows it into one grapheme cluster.
enum TerminalTextPiece: Equatable {
    case text(String)
    case escape(String)

    /// `text` split into its escape sequences (ECMA-48, as terminals parse them)
    /// and the visible text between them. Joined back, the pieces are `text`.
    static func pieces(of text: String) -> [TerminalTextPiece] {
        let scalars = text.unicodeScalars
        var pieces: [TerminalTextPiece] = []
        var textStart = scalars.startIndex
        var index = scalars.startIndex
        while index < scalars.endIndex {
            guard scalars[index] == escape else {
                index = scalars.index(after: index)
                continue
            }
            if textStart < index { pieces.append(.text(String(scalars[textStart..<index]))) }
            let end = endOfSequence(in: scalars, from: index)
            pieces.append(.escape(String(scalars[index..<end])))
            index = end
            textStart = end
        }
        if textStart < scalars.endIndex { pieces.append(.text(String(scalars[textStart...]))) }
        return pieces
    }

    private static let escape: Unicode.Scalar = "\u{1B}"

    /// Where the escape sequence starting at `start` ends (just past its last
    /// scalar); an unfinished sequence runs to the end of the text, as it
    /// would swallow whatever came next in the terminal.
    private static func endOfSequence(in scalars: String.UnicodeScalarView, from start: String.Index) -> String.Index {
        var index = scalars.index(after: start)
        guard index < scalars.endIndex else { return index }
        let introducer = scalars[index]
        index = scalars.index(after: index)
        switch introducer {
        case "[":  // CSI: parameters and intermediates, then one final byte @…~
            while index < scalars.endIndex {
                let value = scalars[index].value
                index = scalars.index(after: index)
                if (0x40...0x7E).contains(value) { break }
            }
        case "]", "P", "X", "^", "_":  // OSC, DCS, SOS, PM, APC: a string ended by BEL or ESC \
            while index < scalars.endIndex {
                let scalar = scalars[index]
                index = scalars.index(after: index)
                if scalar == "\u{07}" { break }
                if scalar == escape, index < scalars.endIndex, scalars[index] == "\\" {
                    index = scalars.index(after: index)
                    break
                }
            }
        case " "..."~":  // ESC, intermediates (space…/), then one final byte (ESC 7, ESC ( B)
            var final = introducer
            while (0x20...0x2F).contains(final.value), index < scalars.endIndex {
                final = scalars[index]
                index = scalars.index(after: index)
            }
        default:  // not a sequence: the ESC alone, and what follows is text
            return scalars.index(after: start)
        }
        return index
    }
}
