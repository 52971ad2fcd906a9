import Foundation
import GRDB
import Testing
import TodoModel
import TodoViewModels
@testable import TodoStorage

/// A database as todod's last release before v4 left it, opened by this one.
///
/// The file is built here rather than kept as a fixture: only the v1–v3
/// migrations run, and every row is written by plain SQL in the form v3
/// wrote it (dates as GRDB's text, undo steps as v3's JSON, whose items have
/// none of the keys v4 added). So the test reads what a user's disk holds,
/// not what this version's own writer would have produced, and it fails if
/// v4's migration or readers stop understanding that.
@Suite struct VersionThreeMigrationTests {
    /// The test's database, in a folder of its own that goes when the test ends.
    let database: TemporaryDatabase
    var path: String { database.path }

    // The instants the v3 rows hold, as `TodoItem` dates and as the text v3 stored.
    let created = Date(timeIntervalSince1970: 1_795_165_200)  // 2026-11-20 09:00 UTC
    let rescheduled = Date(timeIntervalSince1970: 1_795_248_000)  // 2026-11-21 08:00
    let completed = Date(timeIntervalSince1970: 1_795_372_200)  // 2026-11-22 18:30
    let oldRent = Date(timeIntervalSince1970: 1_796_058_000)  // 2026-11-30 17:00
    let rent = Date(timeIntervalSince1970: 1_796_144_400)  // 2026-12-01 17:00
    let christmasEve = CalendarDay(year: 2026, month: 12, day: 24)

    init() throws {
        database = try TemporaryDatabase("v3")
    }

    /// The items v3 held, as this version must read them: no tags, project,
    /// priority, notes, wait, repetition or change times.
    var milk: TodoItem { TodoItem(id: TodoID(1), title: "buy milk", createdAt: created, due: .day(christmasEve)) }
    var payRent: TodoItem { TodoItem(id: TodoID(2), title: "pay rent", createdAt: created, updatedAt: rescheduled, due: .moment(rent)) }
    var callMum: TodoItem {
        TodoItem(id: TodoID(3), title: "call mum", isDone: true, createdAt: created, updatedAt: completed, completedAt: completed)
    }
    /// Deleted before the upgrade; only its undo step (on the redo stack) remembers it.
    var old: TodoItem { TodoItem(id: TodoID(4), title: "old", createdAt: created) }

    /// Milliseconds since 1970, as v3's undo steps hold dates.
    private func ms(_ date: Date) -> String { String(Int64(date.timeIntervalSince1970 * 1000)) }

    /// Builds the v3 file: migrations up to v3, then rows as v3 wrote them.
    private func writeVersionThreeDatabase() throws {
        let queue = try DatabaseQueue(path: path)
        try TodoSchema.migrator.migrate(queue, upTo: "v3: resume record")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO item (id, title, isDone, createdAt, updatedAt, completedAt, dueDay, dueAt) VALUES
                    (1, 'buy milk', 0, '2026-11-20 09:00:00.000', '2026-11-20 09:00:00.000', NULL, '2026-12-24', NULL),
                    (2, 'pay rent', 0, '2026-11-20 09:00:00.000', '2026-11-21 08:00:00.000', NULL, NULL, '2026-12-01 17:00:00.000'),
                    (3, 'call mum', 1, '2026-11-20 09:00:00.000', '2026-11-22 18:30:00.000', '2026-11-22 18:30:00.000', NULL, NULL),
                    (4, 'old', 0, '2026-11-20 09:00:00.000', '2026-11-20 09:00:00.000', NULL, NULL, NULL);
                    DELETE FROM item WHERE id = 4;
                    """)
            // v3's TodoItem had synthesized Codable: DueDate as {"day":{"_0":{…}}}
            // or {"moment":{"_0":ms}}, absent optionals left out, keys sorted.
            let addMilk = """
                {"changes":[{"after":{"createdAt":\(ms(created)),"due":{"day":{"_0":{"day":24,"month":12,"year":2026}}},\
                "id":1,"isDone":false,"title":"buy milk","updatedAt":\(ms(created))}}],"description":"add “buy milk”"}
                """
            let moveRent = """
                {"changes":[{"after":{"createdAt":\(ms(created)),"due":{"moment":{"_0":\(ms(rent))}},"id":2,"isDone":false,\
                "title":"pay rent","updatedAt":\(ms(rescheduled))},"before":{"createdAt":\(ms(created)),\
                "due":{"moment":{"_0":\(ms(oldRent))}},"id":2,"isDone":false,"title":"pay rent","updatedAt":\(ms(created))}}],\
                "description":"change the due date of “pay rent”"}
                """
            let deleteOld = """
                {"changes":[{"before":{"createdAt":\(ms(created)),"id":4,"isDone":false,"title":"old",\
                "updatedAt":\(ms(created))}}],"description":"delete “old”"}
                """
            try db.execute(
                sql: "INSERT INTO historyStep (stack, step) VALUES ('undo', ?), ('undo', ?), ('redo', ?)",
                arguments: [addMilk, moveRent, deleteOld])
            try db.execute(sql: "INSERT INTO viewSetting (name, filter, sort) VALUES ('main', 'active', 'due'), ('done', 'completed', 'title')")
            try db.execute(sql: "INSERT INTO firedReminder (itemID, condition) VALUES (2, 'overdue'), (1, 'waiting')")
        }
        try queue.close()
    }

    @Test func everyItemAndItsDueDateSurvive() throws {
        try writeVersionThreeDatabase()
        let stored = try SQLiteTodoStore(path: path).load()
        #expect(stored.items == [milk, payRent, callMum])
        // 4 was handed out and deleted under v3: never handed out again.
        #expect(stored.nextID == TodoID(5))
    }

    @Test func viewsAndFiredRemindersSurviveUnchanged() throws {
        try writeVersionThreeDatabase()
        let stored = try SQLiteTodoStore(path: path).load()
        #expect(stored.viewSettings == [
            "main": ViewSettings(filter: .active, sort: .due, query: "", grouping: nil),
            "done": ViewSettings(filter: .completed, sort: .title, query: "", grouping: nil),
        ])
        #expect(stored.firedReminders == [
            ReminderKey(itemID: TodoID(2), condition: .overdue), ReminderKey(itemID: TodoID(1), condition: .waiting),
        ])
    }

    /// v3's steps hold items without v4's keys; they read as items with
    /// those fields empty, on both stacks.
    @Test func theHistoryReadsWithEmptyNewFields() throws {
        try writeVersionThreeDatabase()
        let history = try SQLiteTodoStore(path: path).load().history
        #expect(history.undoSteps.map(\.description) == ["add “buy milk”", "change the due date of “pay rent”"])
        #expect(history.undoSteps.allSatisfy { $0.readFailure == nil })
        #expect(history.undoSteps[0].changes == [ItemChange(before: nil, after: milk)])
        var before = payRent
        before.due = .moment(oldRent)
        before.updatedAt = created
        #expect(history.undoSteps[1].changes == [ItemChange(before: before, after: payRent)])
        #expect(history.redoSteps.map(\.changes) == [[ItemChange(before: old, after: nil)]])
    }

    /// Undoing a v3 step goes all the way: the view model reads it, the store
    /// writes the item back (with v4's columns), and it loads as it was.
    @Test func undoingAVersionThreeStepRestoresTheItem() throws {
        try writeVersionThreeDatabase()
        let store = try SQLiteTodoStore(path: path)
        let now = Date(timeIntervalSince1970: 1_795_428_000)
        let model = TodoListViewModel(
            snapshot: try store.load(), clock: TodoClock(timeZone: TimeZone(identifier: "UTC")!, now: { now }))
        let outcome = try model.perform(.undo)
        try store.write([try #require(outcome.write)])
        try store.close()

        let reopened = try SQLiteTodoStore(path: path).load()
        var restored = payRent
        restored.due = .moment(oldRent)
        restored.updatedAt = created
        #expect(reopened.items == [milk, restored, callMum])
        #expect(reopened.history.undoSteps.map(\.description) == ["add “buy milk”"])
        #expect(reopened.history.redoSteps.map(\.description) == ["delete “old”", "change the due date of “pay rent”"])
    }

    /// The migration adds v4's columns and leaves them empty on old rows,
    /// which is what those items and views had.
    @Test func theNewColumnsExistAndAreEmptyOnOldRows() throws {
        try writeVersionThreeDatabase()
        try SQLiteTodoStore(path: path).close()
        let queue = try DatabaseQueue(path: path)
        try queue.read { db in
            let itemColumns = Set(try db.columns(in: "item").map(\.name))
            let added = ["tags", "project", "priority", "notes", "waitDay", "waitAt", "recurrence", "fieldChangedAt"]
            #expect(Set(added).isSubset(of: itemColumns))
            for column in added {
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE \(column) IS NOT NULL") == 0, "\(column)")
            }
            #expect(Set(try db.columns(in: "viewSetting").map(\.name)).isSuperset(of: ["query", "grouping"]))
            #expect(try String.fetchAll(db, sql: "SELECT query FROM viewSetting") == ["", ""])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM viewSetting WHERE grouping IS NOT NULL") == 0)
            #expect(try TodoSchema.migrator.appliedIdentifiers(db) == Set(TodoSchema.migrator.migrations))
        }
        try queue.close()
    }
}
