/// The scalars Unicode's East Asian Width property calls Wide or Fullwidth,
/// which terminals draw two columns wide. Swift's `Unicode.Scalar.Properties`
/// has no such property, so the ranges are written out here (from
/// EastAsianWidth.txt, with whole blocks where every assigned character is
/// wide, so that characters added to those blocks later are wide too).
///
/// Emoji are not listed: `isEmojiPresentation` decides them, and where
/// Unicode gives emoji the Wide width (since 9.0) the two agree. Ambiguous
/// characters (`…`, `·`, Greek and Cyrillic letters, box drawing) count one
/// column, as terminals outside CJK locales draw them.
enum EastAsianWide {
    /// Sorted, not overlapping, so a binary search finds a scalar's range.
    static let ranges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo: leading consonants (the vowels and finals that follow take none)
        0x2329...0x232A,  // angle brackets 〈 〉
        0x2E80...0x303E,  // CJK radicals, Kangxi radicals, ideographic description, CJK symbols and punctuation (U+303F is narrow)
        // Hiragana, Katakana, Bopomofo, Hangul compatibility jamo, Kanbun, CJK strokes, enclosed CJK,
        // CJK compatibility, CJK Extension A, Yijing hexagrams, CJK Unified Ideographs, Yi. Glibc's
        // wcwidth also counts the ambiguous U+3248–324F and the hexagrams (wide since Unicode 16) as wide.
        0x3040...0xA4CF,
        0xA960...0xA97F,  // Hangul Jamo Extended-A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // fullwidth ASCII and punctuation (the halfwidth forms after them are narrow)
        0xFFE0...0xFFE6,  // fullwidth signs ￠ ￡ ￥
        0x16FE0...0x18DFF,  // ideographic symbols, Tangut, Khitan small script, Tangut supplements
        0x1AFF0...0x1B2FF,  // Kana extensions and supplements, Nushu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement (🈂 and 🈷 are not emoji presentation)
        0x20000...0x2FFFD,  // plane 2: CJK Extensions B–F, compatibility supplement
        0x30000...0x3FFFD,  // plane 3: CJK Extensions G and later
    ]

    static func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= ranges[0].lowerBound else { return false }
        var low = 0
        var high = ranges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if value < ranges[middle].lowerBound {
                high = middle - 1
            } else if value > ranges[middle].upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
