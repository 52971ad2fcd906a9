import Foundation
import GRDB
import Testing
import TodoModel
import TodoViewModels
@testable import TodoStorage

/// v5: an imported item's external identity and the list's own UUID, which
/// the identities of exported items are derived from, so both must survive
/// restarts and upgrades unchanged.
@Suite struct ImportIdentityStorageTests {
    /// The test's database, in a folder of its own that goes when the test ends.
    let database: TemporaryDatabase
    var path: String { database.path }
    let created = Date(timeIntervalSince1970: 1_795_165_200)

    init() throws {
        database = try TemporaryDatabase("v5")
    }

    @Test func anExternalIdentityIsStoredAndCleared() throws {
        let imported = TodoItem(id: TodoID(1), title: "from Taskwarrior", createdAt: created, externalID: "844ab377-3fb6-4599-9bc4-d4895a2c957d")
        let store = try SQLiteTodoStore(path: path)
        try store.write([ListWrite(changes: [ItemChange(before: nil, after: imported)])])
        try store.close()
        #expect(try SQLiteTodoStore(path: path).load().items == [imported])
        var cleared = imported
        cleared.externalID = nil
        let reopened = try SQLiteTodoStore(path: path)
        try reopened.write([ListWrite(changes: [ItemChange(before: imported, after: cleared)])])
        #expect(try reopened.load().items == [cleared])
    }

    @Test func theListKeepsOneIdentityForItsLife() throws {
        let store = try SQLiteTodoStore(path: path)
        let first = try store.load().listID
        try store.close()
        #expect(UUID(uuidString: first) != nil)
        #expect(try SQLiteTodoStore(path: path).load().listID == first)
        let other = database.path(of: "other.sqlite")
        #expect(try SQLiteTodoStore(path: other).load().listID != first)
    }

    @Test func aVersionFourListGetsAnIdentityAndKeepsItsItems() throws {
        let queue = try DatabaseQueue(path: path)
        try TodoSchema.migrator.migrate(queue, upTo: "v4: tags, projects, priorities, notes, wait dates, repetition; named views")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO item (id, title, isDone, createdAt, updatedAt, project) VALUES
                    (1, 'kept', 0, '2026-11-20 09:00:00.000', '2026-11-20 09:00:00.000', 'home')
                    """)
        }
        try queue.close()
        let snapshot = try SQLiteTodoStore(path: path).load()
        #expect(snapshot.items.map(\.title) == ["kept"])
        #expect(snapshot.items.first?.externalID == nil)
        #expect(UUID(uuidString: snapshot.listID) != nil)
    }
}
