import Foundation
import TestSupport
import Testing
import TodoViewModels
import TodoViewState

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
        let error = #expect(throws: ListSortError.self) { try ListSort(parsing: "priority,size2") }
        #expect(error?.text == "priority,size2")
        #expect(error?.message.hasPrefix("\"size2\" is not a sort key; expected keys among created, modified, title") == true)
        #expect(error?.message.contains("or a declared field's name") == true)
    }

    /// Sort text is read without the list's fields: a name of lowercase
    /// letters that is no built-in key is a field's (the view model refuses
    /// one it does not declare), and a word todod uses for something else is not.
    @Test func otherNamesAreDeclaredFields() throws {
        let sort = try ListSort(parsing: "Scheduled,estimate-,due")
        #expect(sort.keys == [
            ListSort.Key(.declared("scheduled")), ListSort.Key(.declared("estimate"), reversed: true), ListSort.Key(.due),
        ])
        #expect(sort.text == "scheduled,estimate-,due")
        #expect(throws: ListSortError.self) { try ListSort(parsing: "tags") }
        #expect(throws: ListSortError.self) { try ListSort(parsing: "est_imate") }
        #expect(throws: ListSortError.self) { try ListSort(parsing: "until,until-") }
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
            let keys = ListSort.Field.builtIn + [.declared("scheduled"), .declared("estimate")]
            let fields = keys.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random))
            let sort = try ListSort(fields.map { ListSort.Key($0, reversed: Bool.random(using: &random)) })
            #expect(try ListSort(parsing: sort.text) == sort)
        }
    }

    @Test func theWireCarriesTheCanonicalText() throws {
        let sort = try ListSort(parsing: "Urgency , project-")
        let data = try JSONEncoder().encode(sort)
        #expect(String(decoding: data, as: UTF8.self) == "\"urgency,project-\"")
        #expect(try JSONDecoder().decode(ListSort.self, from: data) == sort)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ListSort.self, from: Data("\"size 2\"".utf8)) }
        #expect(try JSONDecoder().decode(ListSort.self, from: Data("\"size-\"".utf8)).keys == [ListSort.Key(.declared("size"), reversed: true)])
    }
}
