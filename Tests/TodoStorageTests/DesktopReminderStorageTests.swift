import Foundation
import Testing
import TodoModel
import TodoViewModels
@testable import TodoStorage

/// Snoozes and dismissals (migration v6) are stored, replaced by the next
/// answer for the same reminder, and read back after reopening: a snooze
/// outlives a restart.
@Suite struct DesktopReminderStorageTests {
    /// The test's database, in a folder of its own that goes when the test ends.
    let database: TemporaryDatabase
    var path: String { database.path }

    init() throws {
        database = try TemporaryDatabase("desktop")
    }

    @Test func snoozesAndDismissalsComeBackAfterReopening() throws {
        let rent = ReminderKey(itemID: TodoID(1), condition: .overdue)
        let milk = ReminderKey(itemID: TodoID(2), condition: .dueSoon)
        let until = Date(timeIntervalSince1970: 1_800_000_000.25)
        do {
            let store = try SQLiteTodoStore(path: path)
            try store.write([
                ListWrite(desktopReminders: [rent: DesktopReminderState(dismissed: true)]),
                ListWrite(desktopReminders: [rent: DesktopReminderState(snoozedUntil: until), milk: DesktopReminderState(dismissed: true)]),
            ])
            try store.close()
        }
        let reopened = try SQLiteTodoStore(path: path)
        let loaded = try reopened.load().desktopReminders
        #expect(loaded == [rent: DesktopReminderState(snoozedUntil: until), milk: DesktopReminderState(dismissed: true)])
    }
}
