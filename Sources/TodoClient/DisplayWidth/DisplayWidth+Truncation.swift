extension DisplayWidth {
    /// The ellipsis that ends a cut line: one column, so a cut line fills its
    /// width exactly unless a wide character had to go to make room.
    public static let ellipsis: Character = "…"

    /// `text` cut to at most `limit` columns, ending in `…` when anything was
    /// cut; text that fits comes back unchanged.
    ///
    /// It cuts between grapheme clusters only, so an accent is never parted
    /// from its letter nor a flag from its second half; a wide character that
    /// would straddle the limit goes, leaving the line one column short rather
    /// than wrapping. Every escape sequence is kept, the cut ones included (they
    /// take no room), so a colour opened before the cut is still closed after
    /// it; the ellipsis stands where the first cut character stood, in its style.
    public static func truncate(_ text: String, toColumns limit: Int) -> String {
        guard columns(of: text) > limit else { return text }
        let room = max(0, limit - 1)  // the ellipsis takes the last column
        var result = ""
        var used = 0
        var cut = false
        for piece in TerminalTextPiece.pieces(of: text) {
            switch piece {
            case .escape(let sequence):
                result += sequence
            case .text(let visible):
                guard !cut else { continue }
                for character in visible {
                    let width = columns(of: character)
                    if used + width > room {
                        cut = true
                        if limit > 0 { result.append(ellipsis) }
                        break
                    }
                    result.append(character)
                    used += width
                }
            }
        }
        return result
    }
}
