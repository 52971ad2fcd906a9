import Foundation
import Testing
import TodoModel

@Suite struct TodoItemTests {
    let created = Date(timeIntervalSince1970: 1_700_000_000)
    let later = Date(timeIntervalSince1970: 1_700_000_600)

    @Test func markingDoneRecordsWhen() {
        var item = TodoItem(id: TodoID(1), title: "buy milk", createdAt: created)
        let changed = item.setDone(true, at: later)
        #expect(changed)
        #expect(item.isDone)
        #expect(item.completedAt == later)
        #expect(item.updatedAt == later)
    }

    @Test func markingActiveClearsCompletion() {
        var item = TodoItem(id: TodoID(1), title: "buy milk", isDone: true, createdAt: created, completedAt: created)
        let changed = item.setDone(false, at: later)
        #expect(changed)
        #expect(!item.isDone)
        #expect(item.completedAt == nil)
    }

    @Test func settingTheSameStateChangesNothing() {
        var item = TodoItem(id: TodoID(1), title: "buy milk", createdAt: created)
        let before = item
        let changed = item.setDone(false, at: later)
        #expect(!changed)
        #expect(item == before)
    }

    @Test(arguments: [
        ([], []), (["b"], ["b"]), (["b", "A"], ["A", "b"]), (["a", "B"], ["a", "B"]), (["Work", "work"], ["Work", "work"]),
        (["c", "B", "a"], ["a", "B", "c"]), (["é", "e", "Z"], ["e", "Z", "é"]),
    ] as [([String], [String])])
    func tagsAreSortedAToZIgnoringCaseWhateverTheirNumber(tags: [String], sorted: [String]) {
        let item = TodoItem(id: TodoID(1), title: "x", createdAt: created, tags: Set(tags))
        #expect(item.sortedTags == sorted)
    }
}
