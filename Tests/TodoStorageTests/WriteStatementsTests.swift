import Foundation
import GRDB
import Testing
import TodoModel
import TodoViewModels
@testable import TodoStorage

/// The row writer binds a new item's creation and last change from one
/// formatting of their instant; both columns must still hold exactly what
/// formatting each would, also for years `StoredDateText` leaves to GRDB.
@Suite struct WriteStatementsTests {
    let database: TemporaryDatabase
    var path: String { database.path }

    init() throws {
        database = try TemporaryDatabase("write-statements")
    }

    @Test(arguments: [
        1_795_165_200.123,  // 2026
        -30_000_000_000.5,  // year 1019
        -40_000_000_000,  // year 702: GRDB's own text
    ])
    func bothDatesOfAnItemAreStoredAsFormattedAlone(seconds: Double) throws {
        let instant = Date(timeIntervalSince1970: seconds)
        let later = Date(timeIntervalSince1970: seconds + 90.5)
        let same = TodoItem(id: TodoID(1), title: "same", createdAt: instant)
        let changed = TodoItem(id: TodoID(2), title: "changed", createdAt: instant, updatedAt: later)
        #expect(same.updatedAt == same.createdAt && changed.updatedAt != changed.createdAt)
        let store = try SQLiteTodoStore(path: path)
        try store.write([ListWrite(changes: [same, changed].map { ItemChange(before: nil, after: $0) })])
        try store.close()
        let stored = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT createdAt, updatedAt FROM item ORDER BY id").map {
                [$0["createdAt"] as DatabaseValue, $0["updatedAt"] as DatabaseValue]
            }
        }
        #expect(stored == [
            [StoredDateText.databaseValue(instant), StoredDateText.databaseValue(instant)],
            [StoredDateText.databaseValue(instant), StoredDateText.databaseValue(later)],
        ])
        let loaded = try SQLiteTodoStore(path: path).load().items
        #expect(loaded.map(\.createdAt) == loaded.map { _ in StoredDateText.date(readBack: instant) })
        #expect(loaded.map(\.updatedAt) == [instant, later].map(StoredDateText.date(readBack:)))
    }
}

extension StoredDateText {
    /// `date` as a store reads it back: to the millisecond it was written with.
    fileprivate static func date(readBack date: Date) -> Date {
        let text = String.fromDatabaseValue(databaseValue(date))!
        return Array(text.utf8).withUnsafeBytes(StoredDateText.date(fromText:))
            ?? Date.fromDatabaseValue(databaseValue(date))!
    }
}
