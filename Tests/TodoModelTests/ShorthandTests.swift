import Foundation
import Testing
import TodoModel

@Suite struct ShorthandTests {
    @Test func wordsThatAreNotShorthandFormTheTitle() throws {
        let add = try Shorthand.parse("  buy   milk +errand pri:H due:fri  ", for: .add)
        #expect(add.title == "buy milk")
        #expect(add.changes == [.addTag("errand"), .setPriority(.high), .setDue("fri")])
    }

    @Test func everyField() throws {
        let modify = try Shorthand.parse(
            "+a -b project:home.garden pro:work priority:m pri:L due:fri wait:mon recur:weekly", for: .modify)
        #expect(modify.title == "")
        #expect(modify.changes == [
            .addTag("a"), .removeTag("b"), .setProject("home.garden"), .setProject("work"), .setPriority(.medium),
            .setPriority(.low), .setDue("fri"), .setWait("mon"), .setRecurrence("weekly"),
        ])
    }

    @Test func titleWordsKeepTheirOrderAroundShorthand() throws {
        let add = try Shorthand.parse("call +family mum due:sun about the trip", for: .add)
        #expect(add.title == "call mum about the trip")
    }

    @Test func emptyValuesClearInModify() throws {
        let modify = try Shorthand.parse("priority: pri:none project: due: wait: recur:", for: .modify)
        #expect(modify.changes == [.setPriority(nil), .setPriority(nil), .setProject(nil), .setDue(nil), .setWait(nil), .setRecurrence(nil)])
    }

    @Test func emptyValuesAreErrorsInAdd() {
        #expect(throws: ShorthandError(position: 9, reason: .emptyValue(key: "due"))) {
            try Shorthand.parse("milk due:", for: .add)
        }
        #expect(throws: ShorthandError(position: 9, reason: .emptyValue(key: "pri"))) {
            try Shorthand.parse("milk pri:none", for: .add)
        }
    }

    @Test func keysIgnoreCase() throws {
        #expect(try Shorthand.parse("x PRI:h Due:fri", for: .add).changes == [.setPriority(.high), .setDue("fri")])
    }

    @Test func quotedValuesMaySpanSpaces() throws {
        let add = try Shorthand.parse("meet due:\"next fri 14:00\" lunch", for: .add)
        #expect(add.title == "meet lunch")
        #expect(add.changes == [.setDue("next fri 14:00")])
        #expect(throws: ShorthandError(position: 21, reason: .unterminatedQuote)) {
            try Shorthand.parse("meet due:\"next friday", for: .add)
        }
    }

    @Test func doubleDashEndsTheShorthand() throws {
        let add = try Shorthand.parse("+idea -- +1 for pri:H and -- too", for: .add)
        #expect(add.title == "+1 for pri:H and -- too")
        #expect(add.changes == [.addTag("idea")])
    }

    @Test func minusWordsAreTitleTextInAdd() throws {
        let add = try Shorthand.parse("-20% sale - ends friday", for: .add)
        #expect(add.title == "-20% sale - ends friday")
        #expect(add.changes.isEmpty)
    }

    @Test func otherColonsAndLonePlusStayInTheTitle() throws {
        let add = try Shorthand.parse("read https://example.com/a:b at 10:30 note: 1 + 1", for: .add)
        #expect(add.title == "read https://example.com/a:b at 10:30 note: 1 + 1")
        #expect(add.changes.isEmpty)
    }

    @Test func invalidTagsSayWhere() {
        #expect(throws: ShorthandError(position: 6, reason: .invalidTag("+a/b", .invalidCharacter("/", offset: 1)))) {
            try Shorthand.parse("fix +a/b", for: .add)
        }
        #expect(throws: ShorthandError(position: 5, reason: .invalidTag("--x", .startsWithDash))) {
            try Shorthand.parse("fix --x", for: .modify)
        }
        let long = "+" + String(repeating: "t", count: TagName.maximumLength + 1)
        #expect(throws: ShorthandError(position: 3 + TagName.maximumLength, reason: .invalidTag(long, .tooLong(length: TagName.maximumLength + 1)))) {
            try Shorthand.parse("x \(long)", for: .add)
        }
    }

    @Test func invalidProjectsSayWhere() {
        #expect(throws: ShorthandError(position: 11, reason: .invalidProject("home..garden", .emptySegment(offset: 5)))) {
            try Shorthand.parse("x pro:home..garden", for: .add)
        }
        #expect(throws: ShorthandError(position: 10, reason: .invalidProject(".home", .emptySegment(offset: 0)))) {
            try Shorthand.parse("x project:.home", for: .add)
        }
        #expect(throws: ShorthandError(position: 11, reason: .invalidProject("home.", .emptySegment(offset: 5)))) {
            try Shorthand.parse("x pro:home.", for: .add)
        }
        #expect(throws: ShorthandError(position: 8, reason: .invalidProject("a b", .invalidCharacter(" ", offset: 1)))) {
            try Shorthand.parse("x pro:\"a b\"", for: .add)
        }
    }

    @Test func invalidPriority() {
        #expect(throws: ShorthandError(position: 6, reason: .invalidPriority("urgent"))) {
            try Shorthand.parse("x pri:urgent", for: .modify)
        }
    }

    @Test func anAddNeedsATitle() {
        #expect(throws: ShorthandError(position: 11, reason: .missingTitle)) {
            try Shorthand.parse("+home pri:H", for: .add)
        }
        #expect(throws: ShorthandError(position: 0, reason: .missingTitle)) {
            try Shorthand.parse("", for: .add)
        }
    }

    @Test func messagesSayHowToKeepTheWord() {
        let error = ShorthandError(position: 4, reason: .invalidTag("+a/b", .invalidCharacter("/", offset: 1)))
        #expect(error.description.hasPrefix("at 4: \"+a/b\" is not a tag"))
        #expect(error.description.contains("after \"--\""))
    }
}

@Suite struct PriorityAndNameRulesTests {
    @Test func prioritiesOrderAndReadTheirLetters() throws {
        #expect(Priority.low < .medium && Priority.medium < .high)
        #expect(Priority(letter: "h") == .high)
        #expect(Priority(letter: "X") == nil)
        #expect(Priority(letter: "HH") == nil)
    }

    @Test func prioritiesEncodeAsTheirLetter() throws {
        let data = try JSONEncoder().encode([Priority.high, .low])
        #expect(String(decoding: data, as: UTF8.self) == "[\"H\",\"L\"]")
        #expect(try JSONDecoder().decode(Priority.self, from: Data("\"M\"".utf8)) == .medium)
    }

    @Test func tagRules() {
        #expect(TagName.problem(with: "home_2-b") == nil)
        #expect(TagName.problem(with: "épicerie") == nil)
        #expect(TagName.problem(with: "") == .empty)
        #expect(TagName.problem(with: "-x") == .startsWithDash)
        #expect(TagName.problem(with: "a:b") == .invalidCharacter(":", offset: 1))
    }

    @Test func projectRules() {
        #expect(ProjectPath.problem(with: "home.garden.shed") == nil)
        #expect(ProjectPath.problem(with: "") == .empty)
        #expect(ProjectPath.problem(with: "a..b") == .emptySegment(offset: 2))
        #expect(ProjectPath.problem(with: "a/b") == .invalidCharacter("/", offset: 1))
        #expect(ProjectPath.path("Home.Garden", isWithin: "home"))
        #expect(!ProjectPath.path("homework", isWithin: "home"))
    }
}
