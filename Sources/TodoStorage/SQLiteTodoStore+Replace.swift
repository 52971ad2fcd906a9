import Foundation
import GRDB
import TodoModel
import TodoStoreInterface
import TodoViewModels

/// `todod migrate --to sqlite:PATH`: a list copied into a SQLite file whole,
/// in one transaction, as a shared list is moved back or out of its database.
extension SQLiteTodoStore {
    /// What the file held, when it was refused.
    public struct TargetNotEmpty: Error, CustomStringConvertible {
        public var items: Int
        public var steps: Int
        public var description: String {
            "the target list is not empty (\(items) items, \(steps) undo steps); give --force to replace it"
        }
    }

    /// Replaces what the file holds with `snapshot`: the items with their
    /// ids, the undo and redo history, the views, the reminders and the
    /// list's identity (so that exports keep matching). Refuses a list that
    /// holds anything unless `force`. Returns how many items were copied.
    public func replaceList(with snapshot: ListSnapshot, force: Bool) throws -> Int {
        var encoded: [(stack: String, bytes: [UInt8])] = []
        for (stack, steps) in [("undo", snapshot.history.undoSteps), ("redo", snapshot.history.redoSteps)] {
            for step in steps {
                if let reason = step.readFailure { throw UnreadableStep(step: step.description, reason: reason) }
                encoded.append((stack, try StoredStep.encode(step)))
            }
        }
        try database.write { db in
            let items = try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0
            let steps = try Int.fetchOne(db, sql: "SELECT count(*) FROM historyStep") ?? 0
            if !force, items > 0 || steps > 0 { throw TargetNotEmpty(items: items, steps: steps) }
            for table in ["item", "historyStep", "viewSetting", "firedReminder", "desktopReminder"] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            for item in snapshot.items {
                try statements.run(.upsertItem, db) { try TodoRecord.bind(item, to: $0) }
            }
            for (stack, bytes) in encoded {
                try db.execute(sql: "INSERT INTO historyStep (stack, step) VALUES (?, ?)", arguments: [stack, Data(bytes)])
            }
            for (name, settings) in snapshot.viewSettings {
                try db.execute(
                    sql: "INSERT INTO viewSetting (name, filter, sort, query, grouping) VALUES (?, ?, ?, ?, ?)",
                    arguments: [name, settings.filter.rawValue, settings.sort.text, settings.query, settings.grouping?.rawValue])
            }
            for key in snapshot.firedReminders {
                try db.execute(
                    sql: "INSERT INTO firedReminder (itemID, condition) VALUES (?, ?)", arguments: [key.itemID.rawValue, key.condition.rawValue])
            }
            for (key, state) in snapshot.desktopReminders {
                try db.execute(
                    sql: "INSERT INTO desktopReminder (itemID, condition, snoozedUntil, dismissed) VALUES (?, ?, ?, ?)",
                    arguments: [
                        key.itemID.rawValue, key.condition.rawValue, state.snoozedUntil.map(StoredDateText.databaseValue), state.dismissed,
                    ])
            }
            // The next id stays above every id the list gave, deleted ones included.
            try db.execute(
                sql: "UPDATE listIdentity SET uuid = ?, highestItemID = ? WHERE id = 1",
                arguments: [snapshot.listID, snapshot.nextID.rawValue - 1])
        }
        redoState.withLock { $0 = !snapshot.history.redoSteps.isEmpty }
        try synchronize()
        return snapshot.items.count
    }
}
