import Foundation
import GRDB
import Testing
import TodoModel
import TodoViewModels
@testable import TodoStorage

/// A v4 column holding what this version cannot read (a hand edit, another
/// tool, a later version) fails the load with an error that names the item
/// and the column, so a person can find the row. It must not crash, and it
/// must not load the item with the field silently dropped: the next write
/// of that item would then erase the value for good.
@Suite struct DamagedOrganisingColumnTests {
    /// The test's database, in a folder of its own that goes when the test ends.
    let database: TemporaryDatabase
    var path: String { database.path }

    init() throws {
        database = try TemporaryDatabase("damaged")
    }

    /// Stores two good items, then puts `value` into `column` of item 2.
    private func damage(_ column: String, with value: String) throws {
        let store = try SQLiteTodoStore(path: path)
        let created = Date(timeIntervalSince1970: 1_795_165_200)
        try store.write([
            ListWrite(changes: [
                ItemChange(before: nil, after: TodoItem(id: TodoID(1), title: "fine", createdAt: created, tags: ["ok"])),
                ItemChange(before: nil, after: TodoItem(id: TodoID(2), title: "damaged", createdAt: created, priority: .low)),
            ])
        ])
        try store.close()
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "UPDATE item SET \(column) = ? WHERE id = 2", arguments: [value])
        }
        try queue.close()
    }

    /// The load's error text, or nil if it did not fail.
    private func loadFailure() throws -> String? {
        let store = try SQLiteTodoStore(path: path)
        defer { try? store.close() }
        do {
            _ = try store.load()
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test(arguments: [
        ("tags", "not json"),
        ("tags", #"{"a":1}"#),
        ("notes", "[1, 2]"),
        // Any name is a field (declared fields are named by todod.conf), but not any time.
        ("fieldChangedAt", #"{"due": "yesterday"}"#),
        ("fieldValues", #"{"estimate": {"colour": 3}}"#),
        ("priority", "X"),
        ("recurrence", "every blue moon"),
    ])
    func aColumnThatCannotBeReadFailsTheLoadNamingItemAndColumn(column: String, value: String) throws {
        try damage(column, with: value)
        let failure = try #require(try loadFailure(), "the load succeeded: \(column) = \(value) was dropped or misread")
        #expect(failure.contains("item 2"), "\(failure)")
        #expect(failure.contains("column \(column)"), "\(failure)")
        #expect(failure.contains(value.debugDescription), "the stored value is not quoted: \(failure)")
    }

    /// The same columns holding what v4 writes load fine: the check above is
    /// about the values, not about the columns being touched at all.
    @Test func theSameColumnsWithReadableValuesLoad() throws {
        try damage("recurrence", with: "every 3 days")
        let items = try SQLiteTodoStore(path: path).load().items
        #expect(items.map(\.title) == ["fine", "damaged"])
        #expect(items.last?.recurrence?.text == "every 3 days")
        #expect(items.first?.tags == ["ok"])
    }
}
