import Foundation
import Testing
import TodoModel
import TodoStorage

@Suite struct SQLiteTodoStoreTests {
    let directory: URL
    let path: String
    let created = Date(timeIntervalSince1970: 1_700_000_000)

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("todod-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("todos.sqlite").path
    }

    @Test func insertedItemsComeBackInCreationOrder() throws {
        let store = try SQLiteTodoStore(path: path)
        let first = try store.insertItem(title: "buy milk", createdAt: created)
        let second = try store.insertItem(title: "walk the dog", createdAt: created.addingTimeInterval(1))
        #expect(first.id < second.id)
        #expect(try store.allItems() == [first, second])
    }

    @Test func deletedIdsAreNeverHandedOutAgain() throws {
        let store = try SQLiteTodoStore(path: path)
        _ = try store.insertItem(title: "one", createdAt: created)
        let last = try store.insertItem(title: "two", createdAt: created)
        try store.deleteItem(id: last.id)
        let next = try store.insertItem(title: "three", createdAt: created)
        #expect(next.id > last.id)

        // Also across a reopen, which is where plain rowids would reuse the largest id.
        try store.deleteItem(id: next.id)
        try store.close()
        let reopened = try SQLiteTodoStore(path: path)
        #expect(try reopened.insertItem(title: "four", createdAt: created).id > next.id)
    }

    @Test func updatesAreStored() throws {
        let store = try SQLiteTodoStore(path: path)
        var item = try store.insertItem(title: "buy milk", createdAt: created)
        _ = item.setDone(true, at: created.addingTimeInterval(60))
        try store.updateItem(item)
        #expect(try store.allItems() == [item])
    }

    @Test func missingItemsAreReportedNotIgnored() throws {
        let store = try SQLiteTodoStore(path: path)
        #expect(throws: TodoError.notFound(TodoID(42))) { try store.deleteItem(id: TodoID(42)) }
        let ghost = TodoItem(id: TodoID(42), title: "ghost", createdAt: created)
        #expect(throws: TodoError.notFound(TodoID(42))) { try store.updateItem(ghost) }
    }

    @Test func everythingSurvivesCheckpointCloseAndReopen() throws {
        let store = try SQLiteTodoStore(path: path)
        let item = try store.insertItem(title: "survive", createdAt: created)
        try store.checkpoint()
        try store.close()
        // After a truncating checkpoint the database file holds everything on its own.
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(walSize == 0)
        #expect(try SQLiteTodoStore(path: path).allItems() == [item])
    }

    @Test func aNewDatabaseIsCreatedWithItsDirectoryContents() throws {
        _ = try SQLiteTodoStore(path: path)
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
