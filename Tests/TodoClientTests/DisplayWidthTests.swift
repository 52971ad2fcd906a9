import Testing
import TodoClient

/// Columns as a terminal draws them: what keeps a live screen's rows from
/// wrapping when titles are Japanese or carry emoji.
@Suite struct DisplayWidthTests {
    @Test(arguments: [("", 0), ("buy milk", 8), ("  3  [x] buy milk  (due tomorrow)", 33), ("…", 1), ("✔", 1)])
    func narrowCharactersTakeOneColumn(_ text: String, _ columns: Int) {
        #expect(DisplayWidth.columns(of: text) == columns)
    }

    @Test(arguments: [
        ("日本語のタイトル", 16), ("한국어", 6), ("中文标题", 8), ("ｆｕｌｌ", 8), ("買う milk", 9),
        ("ｶﾀｶﾅ", 4),  // halfwidth katakana are narrow
    ])
    func eastAsianWideCharactersTakeTwo(_ text: String, _ columns: Int) {
        #expect(DisplayWidth.columns(of: text) == columns)
    }

    @Test(arguments: [
        ("👍", 2), ("👨‍👩‍👧", 2), ("🇯🇵", 2), ("❤️", 2), ("🏳️‍🌈", 2), ("1️⃣", 2), ("👍🏽", 2), ("👍 ok", 5),
        ("x\u{FE0F}", 1),  // VS16 makes only emoji wide
    ])
    func emojiTakeTwoWhateverTheirScalars(_ text: String, _ columns: Int) {
        #expect(DisplayWidth.columns(of: text) == columns)
    }

    @Test(arguments: [
        ("e\u{301}", 1), ("n\u{303}o", 2), ("a\u{200B}b", 2), ("a\u{200D}b", 2), ("tab\t", 3), ("\u{7}", 0),
    ])
    func marksJoinersAndControlsTakeNone(_ text: String, _ columns: Int) {
        #expect(DisplayWidth.columns(of: text) == columns)
    }

    @Test func hangulJamoMakeOneWideSyllable() {
        #expect(DisplayWidth.columns(of: "\u{1100}\u{1161}\u{11A8}") == 2)  // ᄀ + ᅡ + ᆨ = 각, decomposed
    }

    @Test func escapeSequencesTakeNoColumns() {
        #expect(DisplayWidth.columns(of: "\u{1B}[1;31moverdue\u{1B}[0m") == 7)
        #expect(DisplayWidth.columns(of: "\u{1B}[2m日本\u{1B}[0m") == 4)
        #expect(DisplayWidth.columns(of: "\u{1B}]8;;https://example.com\u{7}link\u{1B}]8;;\u{1B}\\") == 4)
        #expect(DisplayWidth.columns(of: "\u{1B}[0m\u{301}") == 0)  // a stray mark does not join the sequence
    }

    @Test func textThatFitsIsUnchanged() {
        for text in ["buy milk", "日本語のタイトル", "\u{1B}[1mbold\u{1B}[0m", "👨‍👩‍👧 family", ""] {
            #expect(DisplayWidth.truncate(text, toColumns: DisplayWidth.columns(of: text)) == text)
            #expect(DisplayWidth.truncate(text, toColumns: 80) == text)
        }
    }

    @Test func asciiIsCutWithAnEllipsisInTheLastColumn() {
        #expect(DisplayWidth.truncate("buy milk and bread", toColumns: 8) == "buy mil…")
        #expect(DisplayWidth.truncate("buy milk", toColumns: 1) == "…")
        #expect(DisplayWidth.truncate("buy milk", toColumns: 0) == "")
    }

    @Test func aJapaneseRowFitsFiftyColumns() {
        let row = "› 12  [ ] " + String(repeating: "日本語のタイトル", count: 4) + "  (due tomorrow)"
        let cut = DisplayWidth.truncate(row, toColumns: 50)
        // 10 + 19 wide characters + the ellipsis: a 20th wide one would straddle column 50.
        #expect(DisplayWidth.columns(of: cut) == 49)
        #expect(cut.hasSuffix("…"))
        #expect(row.hasPrefix(String(cut.dropLast())))
    }

    @Test(arguments: 1...17)
    func wideCharactersThatWouldStraddleTheLimitGo(_ limit: Int) {
        let title = "日本語のタイトルを買う"  // 22 columns
        let cut = DisplayWidth.truncate(title, toColumns: limit)
        #expect(DisplayWidth.columns(of: cut) <= limit)
        #expect(DisplayWidth.columns(of: cut) >= limit - 1)  // at most the straddling column is lost
        #expect(cut.hasSuffix("…"))
        #expect(title.hasPrefix(String(cut.dropLast())))
    }

    @Test(arguments: 1...12)
    func clustersAreNeverSplit(_ limit: Int) {
        let text = "e\u{301}👨‍👩‍👧🇯🇵❤️n\u{303}👍🏽x"  // 12 columns, 7 clusters
        let cut = DisplayWidth.truncate(text, toColumns: limit)
        let kept = Array(cut.dropLast())
        #expect(Array(text.prefix(kept.count)) == kept)
        for (character, original) in zip(kept, text) {
            #expect(character.unicodeScalars.elementsEqual(original.unicodeScalars))
        }
        #expect(DisplayWidth.columns(of: cut) <= limit)
    }

    @Test func escapeSequencesAreKeptAndNotCounted() {
        let dim = "\u{1B}[2m"
        let reset = "\u{1B}[0m"
        let row = "\(dim)12\(reset)  [x] \(dim)日本語のタイトル\(reset)  \u{1B}[1;31m(due today, overdue)\(reset)"
        #expect(
            DisplayWidth.truncate(row, toColumns: 12) == "\(dim)12\(reset)  [x] \(dim)日…\(reset)\u{1B}[1;31m\(reset)")
        #expect(
            DisplayWidth.truncate(row, toColumns: 30)
                == "\(dim)12\(reset)  [x] \(dim)日本語のタイトル\(reset)  \u{1B}[1;31m(du…\(reset)")
    }

    @Test func theEllipsisTakesTheStyleOfWhatWasCut() {
        #expect(DisplayWidth.truncate("ab\u{1B}[0mcdef", toColumns: 3) == "ab\u{1B}[0m…")
    }
}
