import Foundation
import Testing
import TodoModel
import TodoViewModels
@testable import TodoStorage

/// A list copied into a SQLite file whole (`todod migrate --to sqlite:`):
/// what was copied comes back as it was, and a list that holds anything
/// is replaced only when told to.
@Suite struct ReplacingAListTests {
    let database: TemporaryDatabase
    let created = Date(timeIntervalSince1970: 1_700_000_000)

    init() throws {
        database = try TemporaryDatabase("replace")
    }

    private func item(_ id: Int64, _ title: String) -> TodoItem { TodoItem(id: TodoID(id), title: title, createdAt: created) }

    private var copied: ListSnapshot {
        let add = UndoStep(description: "add “b”", changes: [ItemChange(before: nil, after: item(7, "b"))])
        let redo = UndoStep(description: "add “gone”", changes: [ItemChange(before: nil, after: item(9, "gone"))])
        return ListSnapshot(
            items: [item(3, "a"), item(7, "b")], nextID: TodoID(10), history: UndoHistory(undoSteps: [add], redoSteps: [redo]),
            viewSettings: ["home": ViewSettings(filter: .active, sort: .title)],
            firedReminders: [ReminderKey(itemID: TodoID(3), condition: .overdue)], listID: "6f1c2b9e-0000-4000-8000-00000000abcd")
    }

    @Test func everythingCopiedComesBackWithItsIdsHistoryAndIdentity() throws {
        let store = try SQLiteTodoStore(path: database.path)
        #expect(try store.replaceList(with: copied, force: false) == 2)
        try store.close()
        let loaded = try SQLiteTodoStore(path: database.path).load()
        #expect(loaded.items == copied.items)
        #expect(loaded.nextID == TodoID(10), "the ids the list gave, deleted ones included, are not given again")
        #expect(loaded.history.undoSteps.map(\.description) == ["add “b”"])
        #expect(loaded.history.redoSteps.map(\.description) == ["add “gone”"])
        #expect(loaded.viewSettings == copied.viewSettings)
        #expect(loaded.firedReminders == copied.firedReminders)
        #expect(loaded.listID == copied.listID)
    }

    @Test func aListThatHoldsItemsIsReplacedOnlyWithForce() throws {
        let store = try SQLiteTodoStore(path: database.path)
        try store.write([ListWrite(changes: [ItemChange(before: nil, after: item(1, "mine"))])])
        #expect(throws: SQLiteTodoStore.TargetNotEmpty.self) { try store.replaceList(with: copied, force: false) }
        #expect(try store.load().items.map(\.title) == ["mine"], "nothing was written")
        #expect(try store.replaceList(with: copied, force: true) == 2)
        #expect(try store.load().items.map(\.title) == ["a", "b"])
    }
}
