import Foundation
import Testing
import TodoViewModels
import TodoViewState

/// `TodoRow.keys` is where the schema and the fast row reader learn a row's
/// keys, so it must name exactly what a row encodes: a property added to
/// `TodoRow` without a key there fails here, not in a client.
@Suite struct RowKeyTests {
    private static func encodedKeys(_ row: TodoRow) throws -> Set<String> {
        let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(row)) as? [String: Any]
        return Set(try #require(object).keys)
    }

    @Test func aRowWithEveryKeySetEncodesExactlyTheDeclaredKeys() throws {
        let row = TodoRow(
            id: 1, title: "t", done: false, createdText: "c", dueText: "d", created: "x", modified: "m", completed: "c",
            due: "d", wait: "w", waitText: "w", tags: ["a"], project: "p", priority: "H", recurrence: "weekly", noteCount: 1,
            fieldsText: "f", group: "g", values: ["estimate": .number(3)], valueTexts: ["estimate": "Estimate: 3"],
            blocked: true, blocking: true, depth: 2, context: true)
        #expect(try Self.encodedKeys(row) == Set(TodoRow.keys.map(\.name)))
    }

    @Test func aPlainRowEncodesTheKeysEveryRowHasAndNoOthers() throws {
        let row = TodoRow(id: 1, title: "t", done: false, createdText: "c")
        #expect(try Self.encodedKeys(row) == Set(TodoRow.keys.filter(\.isAlwaysPresent).map(\.name)))
    }

    @Test func keysAreDeclaredOnceInTheWiresOrder() {
        let names = TodoRow.keys.map(\.name)
        #expect(names == names.sorted())
        #expect(Set(names).count == names.count)
        #expect(TodoRow.keys.allSatisfy { !$0.meaning.isEmpty })
    }
}
