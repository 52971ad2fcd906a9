import Foundation
import GRDB
import TestSupport
import Testing
import TodoModel
import TodoViewModels
@testable import TodoStorage

/// Item ids without AUTOINCREMENT (migration v10): an add writes no
/// `sqlite_sequence` page, and still no id is ever given twice, across
/// deletes of the largest item, restarts, and the migration itself.
@Suite struct ItemIDWithoutSequenceTests {
    /// The test's database, in a folder of its own that goes when the test ends.
    let database: TemporaryDatabase
    var path: String { database.path }
    let created = Date(timeIntervalSince1970: 1_795_165_200)

    init() throws {
        database = try TemporaryDatabase("item-ids")
    }

    private func item(_ id: Int64) -> TodoItem {
        TodoItem(id: TodoID(id), title: "item \(id)", createdAt: created)
    }

    private func highestItemID() throws -> Int64? {
        try DatabaseQueue(path: path).read { try Int64.fetchOne($0, sql: "SELECT highestItemID FROM listIdentity") }
    }

    /// What v9 left: AUTOINCREMENT's sequence above the largest item (its
    /// item deleted), and undo steps. After the migration the next id is
    /// still above it, the rows are all there, and no table keeps a sequence.
    @Test func aVersionNineDatabaseKeepsItsItemsStepsAndNextId() throws {
        let queue = try DatabaseQueue(path: path)
        try TodoSchema.migrator.migrate(queue, upTo: "v9: undo steps in a binary form, without an index on their stack")
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO item (id, title, isDone, createdAt, updatedAt, tags) VALUES (1, 'a', 0, ?, ?, '[\"x\"]'), (5, 'b', 1, ?, ?, NULL)",
                arguments: StatementArguments(Array(repeating: "2026-11-20 09:00:00.000", count: 4)))
            try db.execute(sql: "INSERT INTO item (id, title, isDone, createdAt, updatedAt) VALUES (9, 'gone', 0, '2026-11-20 09:00:00.000', '2026-11-20 09:00:00.000')")
            try db.execute(sql: "DELETE FROM item WHERE id = 9")
            try db.execute(sql: "INSERT INTO historyStep (stack, step) VALUES ('undo', x'00'), ('redo', x'01')")
        }
        #expect(try queue.read { try Int64.fetchOne($0, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'item'") } == 9)
        try queue.close()

        let store = try SQLiteTodoStore(path: path)
        let snapshot = try store.load()
        #expect(snapshot.nextID == TodoID(10))
        #expect(snapshot.items.map(\.id) == [TodoID(1), TodoID(5)])
        #expect(snapshot.items.first?.tags == ["x"])
        #expect(snapshot.items.last?.isDone == true)
        #expect(snapshot.history.undoSteps.count == 1 && snapshot.history.redoSteps.count == 1)
        try store.close()
        try DatabaseQueue(path: path).read { db in
            let tables = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE name IN ('item', 'historyStep')")
            #expect(tables.count == 2)
            #expect(tables.allSatisfy { !$0.uppercased().contains("AUTOINCREMENT") })
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_sequence") == 0)
            #expect(try Int64.fetchOne(db, sql: "SELECT highestItemID FROM listIdentity") == 9)
        }
    }

    /// Adds leave `highestItemID` alone (no page of theirs); deleting the
    /// largest item raises it, deleting a smaller one does not.
    @Test func onlyDeletingTheLargestItemWritesTheHighestId() throws {
        let store = try SQLiteTodoStore(path: path)
        try store.write([ListWrite(changes: (1...3).map { ItemChange(before: nil, after: item($0)) })])
        #expect(try highestItemID() == 0)
        try store.write([ListWrite(changes: [ItemChange(before: item(2), after: nil)])])
        #expect(try highestItemID() == 2)
        try store.write([ListWrite(changes: [ItemChange(before: item(1), after: nil)])])
        #expect(try highestItemID() == 2)
        try store.write([ListWrite(changes: [ItemChange(before: item(3), after: nil)])])
        #expect(try highestItemID() == 3)
        try store.close()
        #expect(try SQLiteTodoStore(path: path).load().nextID == TodoID(4))
    }

    /// Random adds and deletes, the largest item deleted often, the store
    /// reopened now and then: the next id is always above every id stored.
    @Test(arguments: [1, 2, 3, 4]) func noIdIsGivenTwiceAcrossDeletesAndRestarts(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var store = try SQLiteTodoStore(path: path)
        var present: [Int64] = []
        var highestEver: Int64 = 0
        for step in 0..<200 {
            let snapshot = try store.load()
            #expect(snapshot.nextID.rawValue > highestEver, "step \(step): next id \(snapshot.nextID) after \(highestEver)")
            switch random.next() % 4 {
            case 0, 1:
                let id = snapshot.nextID.rawValue
                try store.write([ListWrite(changes: [ItemChange(before: nil, after: item(id))])])
                present.append(id)
                highestEver = max(highestEver, id)
            case 2 where !present.isEmpty:
                // The largest, the case AUTOINCREMENT was for.
                let id = present.max()!
                try store.write([ListWrite(changes: [ItemChange(before: item(id), after: nil)])])
                present.removeAll { $0 == id }
            case _ where !present.isEmpty:
                let id = present.remove(at: Int(random.next() % UInt64(present.count)))
                try store.write([ListWrite(changes: [ItemChange(before: item(id), after: nil)])])
            default:
                break
            }
            if random.next() % 8 == 0 {
                try store.close()
                store = try SQLiteTodoStore(path: path)
            }
        }
        #expect(try store.load().items.map(\.id.rawValue) == present.sorted())
        #expect(highestEver > 50)
    }
}
