import TestSupport
import Testing
@testable import TodoModel

@Suite struct TodoTitleTests {
    @Test func trimsSurroundingWhiteSpace() throws {
        #expect(try TodoTitle.validated("  buy milk \t") == "buy milk")
        #expect(try TodoTitle.validated("\u{00A0}call mum\u{00A0}") == "call mum")
    }

    @Test func keepsInnerSpaces() throws {
        #expect(try TodoTitle.validated("walk  the dog") == "walk  the dog")
    }

    @Test(arguments: ["", " ", "\t", "   \u{00A0}  ", "\u{2003}"])
    func refusesBlankTitles(_ raw: String) {
        #expect(throws: TodoError.blankTitle) { try TodoTitle.validated(raw) }
    }

    @Test func acceptsTitleAtTheLimitAndRefusesOneBeyond() throws {
        let atLimit = String(repeating: "a", count: TodoTitle.maximumLength)
        #expect(try TodoTitle.validated(atLimit) == atLimit)
        #expect(throws: TodoError.titleTooLong(length: TodoTitle.maximumLength + 1, maximum: TodoTitle.maximumLength)) {
            try TodoTitle.validated(atLimit + "a")
        }
    }

    @Test func countsCharactersNotBytes() throws {
        let emoji = String(repeating: "👩‍👩‍👧", count: TodoTitle.maximumLength)
        #expect(try TodoTitle.validated(emoji).count == TodoTitle.maximumLength)
    }

    @Test(arguments: [
        "line one\nline two", "bell\u{07}", "tab\tinside", "line\u{2028}separator", "paragraph\u{2029}separator",
        "next\u{85}line", "vertical\u{0B}tab", "form\u{0C}feed",
    ])
    func refusesControlCharactersInside(_ raw: String) {
        #expect(throws: TodoError.titleHasControlCharacters) { try TodoTitle.validated(raw) }
    }

    @Test func errorMessagesSayWhatToDo() {
        #expect(TodoError.blankTitle.description.contains("at least one visible character"))
        #expect(TodoError.notFound(TodoID(7)).description.contains("id 7"))
        #expect(TodoError.titleTooLong(length: 600, maximum: 500).description.contains("600"))
    }

    /// The shortcut for plain ASCII titles answers as the rules by Unicode
    /// do, on random titles near its edges: spaces at either end, control
    /// characters, DEL, a no-break space, lengths around the limit.
    @Test(arguments: [1, 2, 3])
    func thePlainASCIIShortcutAgreesWithTheUnicodeRules(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let pieces = ["a", "Z", "7", " ", "~", "!", "\t", "\n", "\u{7F}", "\u{00A0}", "é", "\u{0301}", "\u{2028}", "\u{1}"]
        var shortcuts = 0
        for _ in 0..<2_000 {
            let length = Bool.random(using: &random)
                ? Int.random(in: 0...8, using: &random) : Int.random(in: TodoTitle.maximumLength - 2...TodoTitle.maximumLength + 2, using: &random)
            let plain = Int.random(in: 0..<4, using: &random) > 0
            let raw = String((0..<length).map { _ in
                plain ? ["a", "Z", "7", "~", "!", " "][Int.random(in: 0..<6, using: &random)] : pieces[Int.random(in: 0..<pieces.count, using: &random)]
            }.joined())
            let byUnicode = Result { () throws(TodoError) in try TodoTitle.validatedByUnicode(raw) }
            let validated = Result { () throws(TodoError) in try TodoTitle.validated(raw) }
            #expect(validated == byUnicode, "\(raw.debugDescription)")
            if TodoTitle.isPlainASCII(raw) {
                shortcuts += 1
                #expect(byUnicode == .success(raw), "\(raw.debugDescription)")
            }
        }
        #expect(shortcuts > 200)
    }
}
