import Foundation
import GRDB
import Testing
import TodoModel
import TodoViewModels
@testable import TodoStorage

/// Undo steps in the binary form (`StoredStep`): every field comes back
/// exactly, steps an earlier version stored as JSON still read and undo, and
/// the stacks without their index keep their rules across restarts.
@Suite struct BinaryUndoStepTests {
    /// The test's database, in a folder of its own that goes when the test ends.
    let database: TemporaryDatabase
    var path: String { database.path }
    let created = Date(timeIntervalSince1970: 1_795_165_200.123)

    init() throws {
        database = try TemporaryDatabase("binary-steps")
    }

    private func later(_ seconds: Double) -> Date { Date(timeIntervalSince1970: created.timeIntervalSince1970 + seconds) }

    /// A whole second: an earlier version's JSON kept dates in milliseconds.
    private func plain(_ id: Int64, _ title: String) -> TodoItem {
        TodoItem(id: TodoID(id), title: title, createdAt: Date(timeIntervalSince1970: 1_795_165_200))
    }

    /// Every field set, dates with fractions a millisecond form would round.
    private func everything() throws -> TodoItem {
        TodoItem(
            id: TodoID(7), title: "repaint the “fence” \\ \u{1}", isDone: true, createdAt: created, updatedAt: later(3600.000_123),
            completedAt: later(7200.5), due: .day(CalendarDay(year: 2027, month: 1, day: 31)),
            tags: ["Garden", "weekend", "DIY", "with \"quotes\""], project: "home.garden", priority: .high,
            notes: [TodoNote(text: "buy green paint", addedAt: later(60.5)), TodoNote(text: "", addedAt: later(61))],
            wait: .moment(later(86_400.25)),
            recurrence: try Recurrence(parsing: "monthly on day 31"),
            values: ["scheduled": .date(.day(CalendarDay(year: 2027, month: 1, day: 5))), "estimate": .number(2.5),
                     "parent": .items([TodoID(3)]), "note": .text("x"), "took": .duration(90)],
            fieldChangedAt: [.tags: later(60), .priority: later(90.001), ItemField(rawValue: "scheduled"): later(5)],
            externalID: "5f1c9a0e-0000-4000-8000-000000000001",
            foreign: ForeignFields(taskwarrior: ["estimate": "3.5"], icalendar: ["X-A:b"]))
    }

    @Test func aStepWithEveryFieldReadsBackEqual() throws {
        var before = try everything()
        before.title = "before"
        before.tags = []
        var step = UndoStep(
            description: "change “repaint”", changes: [ItemChange(before: before, after: try everything()), ItemChange(before: nil, after: plain(8, "new"))])
        step.origin = "laptop"
        let bytes = try StoredStep.encode(step)
        let read = try StoredStep.decode(bytes)
        #expect(read == step)
        #expect(read.origin == "laptop")
        #expect(StoredStep.header(of: bytes)?.description == "change “repaint”")
        #expect(StoredStep.header(of: bytes)?.origin == "laptop")
        // Equal steps are equal bytes (tags and change times in a fixed order).
        #expect(try StoredStep.encode(read) == bytes)
    }

    @Test func damagedBytesFailTheReadRatherThanCrash() throws {
        let bytes = try StoredStep.encode(UndoStep(description: "add “a”", changes: [ItemChange(before: nil, after: try everything())]))
        for length in 0..<bytes.count {
            #expect(throws: (any Error).self) { try StoredStep.decode(Array(bytes.prefix(length))) }
        }
        var unknownFormat = bytes
        unknownFormat[0] = 99
        #expect(throws: (any Error).self) { try StoredStep.decode(unknownFormat) }
        #expect(StoredStep.header(of: unknownFormat) == nil)
        #expect(throws: (any Error).self) { try StoredStep.decode(bytes + [0]) }
    }

    @Test func aStepIsStoredAsABlobAndSurvivesARestart() throws {
        let store = try SQLiteTodoStore(path: path)
        let add = UndoStep(description: "add “a”", changes: [ItemChange(before: nil, after: try everything())])
        try store.write([ListWrite(changes: add.changes, historyChange: .record(add))])
        try store.close()
        let types = try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT typeof(step) FROM historyStep") }
        #expect(types == ["blob"])
        let history = try SQLiteTodoStore(path: path).load().history
        #expect(history.undoSteps == [add])
        #expect(history.undoSteps[0].readFailure == nil)
    }

    /// A database whose history an earlier version wrote as JSON: the JSON
    /// steps read, undo and redo, beside new binary ones, and the stacks'
    /// index is gone after the migration.
    @Test func jsonStepsOfAnEarlierVersionStillUndoBesideBinaryOnes() throws {
        let first = UndoStep(description: "add “a”", changes: [ItemChange(before: nil, after: plain(1, "a"))])
        let second = UndoStep(description: "add “b”", changes: [ItemChange(before: nil, after: plain(2, "b"))])
        // Up to v8, with v8's JSON in the history, as that version left it.
        let queue = try DatabaseQueue(path: path)
        try TodoSchema.migrator.migrate(queue, upTo: "v8: declared fields (scheduled, until, those todod.conf declares)")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO listIdentity (id, uuid) VALUES (1, 'x') ON CONFLICT DO NOTHING")
            try db.execute(
                sql: "INSERT INTO item (id, title, isDone, createdAt, updatedAt) VALUES (1, 'a', 0, ?, ?), (2, 'b', 0, ?, ?)",
                arguments: StatementArguments(Array(repeating: "2026-11-20 09:00:00.000", count: 4)))
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .millisecondsSince1970
            encoder.outputFormatting = .sortedKeys
            for step in [first, second] {
                try db.execute(
                    sql: "INSERT INTO historyStep (stack, step) VALUES ('undo', ?)",
                    arguments: [String(decoding: try encoder.encode(step), as: UTF8.self)])
            }
        }
        #expect(try queue.read { try Bool.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'historyStep_on_stack'") } == true)
        try queue.close()

        let store = try SQLiteTodoStore(path: path)
        var model = try store.load()
        #expect(model.history.undoSteps == [first, second])
        // A new binary step on top, then undo all three across restarts.
        let third = UndoStep(description: "add “c”", changes: [ItemChange(before: nil, after: plain(3, "c"))])
        try store.write([ListWrite(changes: third.changes, historyChange: .record(third))])
        model.apply(ListWrite(changes: third.changes, historyChange: .record(third)))
        try store.close()
        for expected in [third, second, first] {
            let reopened = try SQLiteTodoStore(path: path)
            let snapshot = try reopened.load()
            #expect(snapshot == model)
            let step = try #require(snapshot.history.nextUndo)
            #expect(step == expected && step.readFailure == nil)
            let undo = ListWrite(changes: step.inverse.changes, historyChange: .undo)
            try reopened.write([undo])
            model.apply(undo)
            try reopened.close()
        }
        let reopened = try SQLiteTodoStore(path: path)
        let undone = try reopened.load()
        #expect(undone.items.isEmpty)
        #expect(undone.history.undoSteps.isEmpty)
        #expect(undone.history.redoSteps == [third, second, first])
        // Redo one, then record a new step: the rest of the redo stack goes.
        let redo = ListWrite(changes: first.changes, historyChange: .redo)
        try reopened.write([redo])
        let fourth = UndoStep(description: "add “d”", changes: [ItemChange(before: nil, after: plain(4, "d"))])
        try reopened.write([ListWrite(changes: fourth.changes, historyChange: .record(fourth))])
        try reopened.close()
        let last = try SQLiteTodoStore(path: path).load()
        #expect(last.history.undoSteps == [first, fourth])
        #expect(last.history.redoSteps.isEmpty)
        #expect(last.items.map(\.title) == ["a", "d"])
        let index = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'historyStep_on_stack'") }
        #expect(index == 0)
    }

    /// The redo stack is cleared by a new step even when this store did not
    /// see it filled (another store, or an earlier run, did).
    @Test func aNewStepClearsARedoStackThisStoreDidNotLoad() throws {
        let first = UndoStep(description: "add “a”", changes: [ItemChange(before: nil, after: plain(1, "a"))])
        let store = try SQLiteTodoStore(path: path)
        try store.write([ListWrite(changes: first.changes, historyChange: .record(first))])
        try store.write([ListWrite(changes: first.inverse.changes, historyChange: .undo)])
        try store.close()
        let again = try SQLiteTodoStore(path: path)  // never loaded
        let second = UndoStep(description: "add “b”", changes: [ItemChange(before: nil, after: plain(2, "b"))])
        try again.write([ListWrite(changes: second.changes, historyChange: .record(second))])
        try again.close()
        let history = try SQLiteTodoStore(path: path).load().history
        #expect(history.undoSteps == [second])
        #expect(history.redoSteps.isEmpty)
    }
}
