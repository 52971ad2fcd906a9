import Testing
import TodoModel

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
}
