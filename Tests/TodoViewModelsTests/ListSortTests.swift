import Foundation
import TestSupport
import Testing
import TodoViewModels

/// Sort text: keys separated by commas, `-` to reverse one; refused with
/// a message when a key is unknown or named twice; one canonical text.
@Suite struct ListSortTests {
    @Test func keysAndDirectionsAreRead() throws {
        let sort = try ListSort(parsing: "priority,due-")
        #expect(sort.keys == [ListSort.Key(.priority), ListSort.Key(.due, reversed: true)])
        #expect(sort.text == "priority,due-")
    }

    @Test func spacesCaseAndAPlusAreAllowed() throws {
        #expect(try ListSort(parsing: " Priority+ , DUE- ,title").text == "priority,due-,title")
    }

    @Test func anUnknownKeyIsRefusedWithTheKnownOnes() {
        let error = #expect(throws: ListSortError.self) { try ListSort(parsing: "priority,size") }
        #expect(error?.text == "priority,size")
        #expect(error?.message.hasPrefix("\"size\" is not a sort key; expected keys among created, modified, title") == true)
    }

    @Test(arguments: ["due,due-", "title,priority,title"])
    func aKeyNamedTwiceIsRefused(text: String) {
        let error = #expect(throws: ListSortError.self) { try ListSort(parsing: text) }
        #expect(error?.message.hasSuffix("is named twice") == true)
        #expect(error?.text == text)
    }

    @Test(arguments: ["", ",", "due,", "-"])
    func anEmptyKeyIsRefused(text: String) {
        #expect(throws: ListSortError.self) { try ListSort(parsing: text) }
    }

    @Test func theCanonicalTextReadsBackAsTheSameSort() throws {
        var random = SeededRandom(seed: 7)
        for _ in 0..<500 {
            let fields = ListSort.Field.allCases.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random))
            let sort = try ListSort(fields.map { ListSort.Key($0, reversed: Bool.random(using: &random)) })
            #expect(try ListSort(parsing: sort.text) == sort)
        }
    }

    @Test func theWireCarriesTheCanonicalText() throws {
        let sort = try ListSort(parsing: "Urgency , project-")
        let data = try JSONEncoder().encode(sort)
        #expect(String(decoding: data, as: UTF8.self) == "\"urgency,project-\"")
        #expect(try JSONDecoder().decode(ListSort.self, from: data) == sort)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ListSort.self, from: Data("\"size\"".utf8)) }
    }
}
