import Foundation
import GRDB
import Testing
import TodoModel
import TodoViewModels
@testable import TodoStorage
import TodoStoreInterface

@Suite struct SQLiteTodoStoreTests {
    /// The test's database, in a folder of its own that goes when the test ends.
    let database: TemporaryDatabase
    var path: String { database.path }
    let created = Date(timeIntervalSince1970: 1_700_000_000)

    init() throws {
        database = try TemporaryDatabase("store")
    }

    private func item(_ id: Int64, _ title: String, done: Bool = false, due: DueDate? = nil) -> TodoItem {
        TodoItem(id: TodoID(id), title: title, isDone: done, createdAt: created, completedAt: done ? created : nil, due: due)
    }

    private func insert(_ items: TodoItem..., into store: SQLiteTodoStore) throws {
        try store.write([ListWrite(changes: items.map { ItemChange(before: nil, after: $0) })])
    }

    @Test func itemsComeBackInIdOrderWithEveryField() throws {
        let store = try SQLiteTodoStore(path: path)
        let day = DueDate.day(CalendarDay(year: 2026, month: 12, day: 24))
        let moment = DueDate.moment(Date(timeIntervalSince1970: 1_800_000_000))
        try insert(item(2, "walk", due: moment), item(1, "milk", done: true, due: day), into: store)
        #expect(try store.load().items == [item(1, "milk", done: true, due: day), item(2, "walk", due: moment)])
    }

    /// Items are read by column with a fast date reader; dates in any other
    /// form GRDB understands (a row written by another tool, say) still load.
    @Test func datesInOtherFormsStillLoad() throws {
        let store = try SQLiteTodoStore(path: path)
        try insert(item(1, "ours"), into: store)
        try store.close()
        try DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO item (id, title, isDone, createdAt, updatedAt, completedAt, dueAt)
                    VALUES (2, 'theirs', 1, '2026-11-23 10:00', 1795428000, '2026-11-23T10:00:00.000', '2026-11-23 10:00:00')
                    """)
        }
        let items = try SQLiteTodoStore(path: path).load().items
        let tenOClock = Date(timeIntervalSince1970: 1_795_428_000)
        #expect(items.first == item(1, "ours"))
        #expect(items.last == TodoItem(
            id: TodoID(2), title: "theirs", isDone: true, createdAt: tenOClock, updatedAt: tenOClock, completedAt: tenOClock,
            due: .moment(tenOClock)))
    }

    @Test func theNextIdIsNeverOneThatWasUsed() throws {
        let store = try SQLiteTodoStore(path: path)
        try insert(item(1, "one"), item(2, "two"), into: store)
        try store.write([ListWrite(changes: [ItemChange(before: item(2, "two"), after: nil)])])
        #expect(try store.load().nextID == TodoID(3))
        // Also across a reopen, which is where plain rowids would reuse the largest id.
        try store.close()
        #expect(try SQLiteTodoStore(path: path).load().nextID == TodoID(3))
    }

    @Test func aClosedStoreRefusesWritesAndKeepsWhatWasThere() throws {
        let store = try SQLiteTodoStore(path: path)
        try insert(item(1, "one"), into: store)
        try store.close()
        #expect(throws: (any Error).self) { try insert(item(2, "two"), into: store) }
        #expect(try SQLiteTodoStore(path: path).load().items.map(\.title) == ["one"])
    }

    @Test func historySurvivesAndMovesBetweenStacks() throws {
        let store = try SQLiteTodoStore(path: path)
        let first = UndoStep(description: "add “a”", changes: [ItemChange(before: nil, after: item(1, "a"))])
        let second = UndoStep(description: "add “b”", changes: [ItemChange(before: nil, after: item(2, "b"))])
        try store.write([ListWrite(changes: first.changes, historyChange: .record(first))])
        try store.write([ListWrite(changes: second.changes, historyChange: .record(second))])
        try store.write([ListWrite(changes: second.inverse.changes, historyChange: .undo)])
        try store.close()

        let history = try SQLiteTodoStore(path: path).load().history
        #expect(history.undoSteps == [first])
        #expect(history.redoSteps == [second])
    }

    /// Steps are read back lazily: their descriptions at once, their items
    /// when undone. So a step whose stored form is damaged (here: valid JSON
    /// of the wrong shape, and text that is not JSON) no longer fails the
    /// load; it says why it cannot be read, and the steps around it work.
    @Test func aDamagedStepIsLoadedAndSaysWhyItCannotBeRead() throws {
        let store = try SQLiteTodoStore(path: path)
        var steps: [UndoStep] = []
        for id in 1...6 {
            let step = UndoStep(description: "add “\(id)”", changes: [ItemChange(before: nil, after: item(Int64(id), "\(id)"))])
            steps.append(step)
            try store.write([ListWrite(changes: step.changes, historyChange: .record(step))])
        }
        try store.close()
        try DatabaseQueue(path: path).write { db in
            let seqs = try Int64.fetchAll(db, sql: "SELECT seq FROM historyStep ORDER BY seq")
            try db.execute(sql: "UPDATE historyStep SET step = ? WHERE seq = ?", arguments: [#"{"changes":42,"description":"add “2”"}"#, seqs[1]])
            try db.execute(sql: "UPDATE historyStep SET step = ? WHERE seq = ?", arguments: ["{not json", seqs[2]])
            try db.execute(sql: "UPDATE historyStep SET step = ? WHERE seq = ?", arguments: [#"{"changes":[],"description":5}"#, seqs[4]])
            try db.execute(sql: "UPDATE historyStep SET step = 5 WHERE seq = ?", arguments: [seqs[5]])
        }

        let undo = try SQLiteTodoStore(path: path).load().history.undoSteps
        #expect(undo.map(\.description) == [
            "add “1”", "add “2”", "a change that cannot be read back", "add “4”", "a change that cannot be read back",
            "a change that cannot be read back",
        ])
        #expect(undo[0] == steps[0] && undo[3] == steps[3])
        #expect(undo[0].readFailure == nil && undo[3].readFailure == nil)
        #expect(undo[1].readFailure != nil && undo[1].changes.isEmpty)
        #expect(undo[2].readFailure?.contains("not JSON with a description") == true)
        #expect(undo[4].readFailure != nil && undo[5].readFailure != nil)
    }

    /// A value that is not what its column holds (here a date that is no
    /// date) fails the load with an error, as GRDB's decoding did: never a crash.
    @Test func anItemWithAnUnreadableDateFailsTheLoad() throws {
        let store = try SQLiteTodoStore(path: path)
        try insert(item(1, "one"), into: store)
        try store.close()
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE item SET updatedAt = 'garbage' WHERE id = 1")
        }
        #expect(throws: (any Error).self) { try SQLiteTodoStore(path: path).load() }
    }

    @Test func recordingClearsRedoAndKeepsTheNewestHundred() throws {
        let store = try SQLiteTodoStore(path: path)
        var steps: [UndoStep] = []
        for id in 1...(UndoHistory.limit + 5) {
            let step = UndoStep(description: "add \(id)", changes: [ItemChange(before: nil, after: item(Int64(id), "\(id)"))])
            steps.append(step)
            try store.write([ListWrite(changes: step.changes, historyChange: .record(step))])
        }
        try store.write([ListWrite(historyChange: .undo)])
        let next = UndoStep(description: "new", changes: [])
        try store.write([ListWrite(historyChange: .record(next))])
        let history = try store.load().history
        #expect(history.redoSteps.isEmpty)
        #expect(history.undoSteps.count == UndoHistory.limit)
        #expect(history.undoSteps.last == next)
        #expect(history.undoSteps.first == steps[5])
    }

    /// The stack is trimmed every `trimInterval` steps, not on every commit:
    /// the table stays within the limit plus that many rows.
    @Test func theStoredUndoStackStaysBounded() throws {
        let store = try SQLiteTodoStore(path: path)
        for id in 1...(UndoHistory.limit * 3) {
            let step = UndoStep(description: "add \(id)", changes: [ItemChange(before: nil, after: item(Int64(id), "\(id)"))])
            try store.write([ListWrite(changes: step.changes, historyChange: .record(step))])
        }
        try store.close()
        let rows = try DatabaseQueue(path: path).read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM historyStep WHERE stack = 'undo'") ?? 0
        }
        #expect(rows >= UndoHistory.limit)
        #expect(rows < UndoHistory.limit + Int(SQLiteTodoStore.trimInterval))
        let kept = try SQLiteTodoStore(path: path).load().history.undoSteps
        #expect(kept.map(\.description) == (UndoHistory.limit * 2 + 1...UndoHistory.limit * 3).map { "add \($0)" })
    }

    @Test func viewSettingsAndFiredRemindersAreKept() throws {
        let store = try SQLiteTodoStore(path: path)
        let key = ReminderKey(itemID: TodoID(4), condition: .overdue)
        try store.write([ListWrite(viewSettings: ["main": ViewSettings(filter: .active, sort: .title)], firedReminders: [key, key])])
        try store.close()
        let stored = try SQLiteTodoStore(path: path).load()
        #expect(stored.viewSettings == ["main": ViewSettings(filter: .active, sort: .title)])
        #expect(stored.firedReminders == [key])
    }

    @Test func everythingSurvivesCheckpointCloseAndReopen() throws {
        let store = try SQLiteTodoStore(path: path)
        try insert(item(1, "survive"), into: store)
        try store.checkpoint()
        try store.close()
        // After a truncating checkpoint the database file holds everything on its own.
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(walSize == 0)
        #expect(try SQLiteTodoStore(path: path).load().items == [item(1, "survive")])
    }

    @Test func aVersionOneDatabaseIsMigratedWithItsItems() throws {
        do {
            let old = try DatabaseQueue(path: path)
            try TodoSchema.migrator.migrate(old, upTo: "v1: items")
            try old.write { db in
                try db.execute(
                    sql: "INSERT INTO item (title, isDone, createdAt, updatedAt) VALUES ('from v1', 0, ?, ?)",
                    arguments: [created, created])
            }
        }
        let stored = try SQLiteTodoStore(path: path).load()
        #expect(stored.items.map(\.title) == ["from v1"])
        #expect(stored.items.first?.due == nil)
        #expect(stored.nextID == TodoID(2))
        #expect(stored.history.undoSteps.isEmpty)
    }
}

/// Batches: one transaction, a savepoint per write.
@Suite struct SQLiteBatchTests {
    /// The test's database, in a folder of its own that goes when the test ends.
    let database: TemporaryDatabase
    var path: String { database.path }
    let created = Date(timeIntervalSince1970: 1_795_345_200)

    init() throws {
        database = try TemporaryDatabase("batch")
    }

    func item(_ id: Int64, _ title: String) -> TodoItem {
        TodoItem(id: TodoID(id), title: title, createdAt: created)
    }

    @Test func aFailedWriteKeepsTheOnesBeforeItAndDropsTheRest() throws {
        let store = try SQLiteTodoStore(path: path)
        // The database refuses the third write's item.
        let first = ListWrite(changes: [ItemChange(before: nil, after: item(1, "one"))])
        let second = ListWrite(changes: [ItemChange(before: nil, after: item(2, "two"))])
        let step = UndoStep(description: "add “three”", changes: [ItemChange(before: nil, after: item(3, "three"))])
        let third = ListWrite(changes: step.changes, historyChange: .record(step))
        let fourth = ListWrite(changes: [ItemChange(before: nil, after: item(4, "four"))])
        try store.refuseItemsForTesting(titled: "three")
        #expect {
            try store.write([first, second, third, fourth])
        } throws: { error in
            (error as? BatchWriteError)?.stored == 2
        }
        #expect(try store.load().items.map(\.title) == ["one", "two"])
    }

    @Test func aResumeRecordIsReadWithoutWritingAndDeletedByTheNextWrite() throws {
        do {
            let store = try SQLiteTodoStore(path: path)
            try store.saveResumeRecord(ResumeRecord(epoch: "e", revision: 7, history: []))
            try store.close()
        }
        let store = try SQLiteTodoStore(path: path)
        #expect(try store.resumeRecord()?.revision == 7)
        #expect(try store.resumeRecord()?.revision == 7)  // reading is not taking
        try store.write([])  // even an empty batch deletes it
        #expect(try store.resumeRecord() == nil)
        #expect(!store.hasPendingResumeRecord)
    }
}
