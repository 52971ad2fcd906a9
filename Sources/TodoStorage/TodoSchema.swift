import Foundation
import GRDB

/// The database schema, as an ordered list of migrations.
///
/// Migrations are never edited once released: a change to the schema is a new
/// migration appended here, so an old database opens and is brought up to date.
enum TodoSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: items") { db in
            // AUTOINCREMENT: SQLite then never reuses the id of a deleted row,
            // which plain INTEGER PRIMARY KEY would do for the largest id.
            try db.create(table: "item") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("title", .text).notNull()
                table.column("isDone", .boolean).notNull().defaults(to: false)
                table.column("createdAt", .datetime).notNull()
                table.column("updatedAt", .datetime).notNull()
                table.column("completedAt", .datetime)
            }
        }
        migrator.registerMigration("v2: due dates, undo history, shared views, reminders") { db in
            try db.alter(table: "item") { table in
                // A due day ("2026-11-25") or a due moment; at most one is set.
                table.add(column: "dueDay", .text)
                table.add(column: "dueAt", .datetime)
            }
            try db.create(table: "historyStep") { table in
                table.autoIncrementedPrimaryKey("seq")
                table.column("stack", .text).notNull().indexed()  // "undo" or "redo"
                table.column("step", .text).notNull()  // UndoStep as JSON
            }
            try db.create(table: "viewSetting") { table in
                table.primaryKey("name", .text)
                table.column("filter", .text).notNull()
                table.column("sort", .text).notNull()
            }
            try db.create(table: "firedReminder") { table in
                table.column("itemID", .integer).notNull()
                table.column("condition", .text).notNull()
                table.primaryKey(["itemID", "condition"])
            }
        }
        migrator.registerMigration("v3: resume record") { db in
            // Written on a clean shutdown, read at start, deleted with the first change after.
            try db.create(table: "resumeRecord") { table in
                table.primaryKey("id", .integer).check { $0 == 1 }  // at most one row
                table.column("epoch", .text).notNull()
                table.column("revision", .integer).notNull()
            }
            try db.create(table: "resumeHistory") { table in
                table.primaryKey("revision", .integer)
                table.column("payload", .blob).notNull()
            }
        }
        migrator.registerMigration("v4: tags, projects, priorities, notes, wait dates, repetition; named views") { db in
            // Every existing item keeps its row: the new columns are empty
            // (no tags, no project, …), which is what those items had.
            try db.alter(table: "item") { table in
                table.add(column: "tags", .text)  // JSON array of strings, A to Z; NULL for none
                table.add(column: "project", .text)
                table.add(column: "priority", .text)  // "H", "M" or "L"
                table.add(column: "notes", .text)  // JSON array of {text, addedAt}; NULL for none
                table.add(column: "waitDay", .text)  // like dueDay/dueAt: at most one is set
                table.add(column: "waitAt", .datetime)
                table.add(column: "recurrence", .text)  // Recurrence's canonical text
                table.add(column: "fieldChangedAt", .text)  // JSON object: field → date; NULL for none
            }
            try db.alter(table: "viewSetting") { table in
                table.add(column: "query", .text).notNull().defaults(to: "")
                table.add(column: "grouping", .text)
            }
        }
        migrator.registerMigration("v5: external identities for import, and the list's own identity") { db in
            try db.alter(table: "item") { table in
                // The Taskwarrior UUID or iCalendar UID an imported item came with; NULL for items made here.
                table.add(column: "externalID", .text)
            }
            // One random UUID per list, made once: the identities exports give
            // items made here are derived from it and the item's id, so they
            // are unique across lists and an import can recognise its own.
            try db.create(table: "listIdentity") { table in
                table.primaryKey("id", .integer).check { $0 == 1 }  // exactly one row
                table.column("uuid", .text).notNull()
            }
            try db.execute(sql: "INSERT INTO listIdentity (id, uuid) VALUES (1, ?)", arguments: [UUID().uuidString.lowercased()])
        }
        migrator.registerMigration("v6: reminders snoozed or dismissed on the desktop") { db in
            try db.create(table: "desktopReminder") { table in
                table.column("itemID", .integer).notNull()
                table.column("condition", .text).notNull()
                table.column("snoozedUntil", .datetime)  // NULL: not snoozed
                table.column("dismissed", .boolean).notNull()
                table.primaryKey(["itemID", "condition"])
            }
        }
        migrator.registerMigration("v7: what other programs keep and todod does not model") { db in
            try db.alter(table: "item") { table in
                // ForeignFields as JSON; NULL for none ("foreign" is an SQL keyword).
                table.add(column: "foreignFields", .text)
            }
        }
        migrator.registerMigration("v8: declared fields (scheduled, until, those todod.conf declares)") { db in
            try db.alter(table: "item") { table in
                // [field name: FieldValue] as JSON; NULL for none.
                table.add(column: "fieldValues", .text)
            }
        }
        migrator.registerMigration("v9: undo steps in a binary form, without an index on their stack") { db in
            // New steps are BLOBs (`StoredStep`); the JSON text of earlier
            // ones stays and is read as before. The index on `stack` cost a
            // page of the write-ahead log on every commit, and what it found
            // (the redo steps a new step clears) is now looked for only when
            // the store knows there can be any.
            try db.execute(sql: "DROP INDEX IF EXISTS historyStep_on_stack")
        }
        migrator.registerMigration("v10: ids without AUTOINCREMENT; the highest item id kept in listIdentity") { db in
            // AUTOINCREMENT wrote `sqlite_sequence` on every add: one of the
            // three pages each durable add put in the write-ahead log. Ids
            // are still never reused: todod gives the next id itself, after
            // the largest of the items' ids and `highestItemID`, and the store
            // raises `highestItemID` when it deletes an item above it (the
            // only way the largest id could leave the table), so only
            // deletes write that page.
            try db.alter(table: "listIdentity") { table in
                table.add(column: "highestItemID", .integer).notNull().defaults(to: 0)
            }
            try db.execute(sql: "UPDATE listIdentity SET highestItemID = coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'item'), 0)")
            // SQLite cannot drop AUTOINCREMENT from a table: both are made
            // again without it, columns as before, rows copied as they are.
            try rebuild(
                db, "item",
                as: """
                    "id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "isDone" BOOLEAN NOT NULL DEFAULT 0, \
                    "createdAt" DATETIME NOT NULL, "updatedAt" DATETIME NOT NULL, "completedAt" DATETIME, \
                    "dueDay" TEXT, "dueAt" DATETIME, "tags" TEXT, "project" TEXT, "priority" TEXT, "notes" TEXT, \
                    "waitDay" TEXT, "waitAt" DATETIME, "recurrence" TEXT, "fieldChangedAt" TEXT, "externalID" TEXT, \
                    "foreignFields" TEXT, "fieldValues" TEXT
                    """,
                columns: """
                    id, title, isDone, createdAt, updatedAt, completedAt, dueDay, dueAt, tags, project, priority, notes, \
                    waitDay, waitAt, recurrence, fieldChangedAt, externalID, foreignFields, fieldValues
                    """)
            // Step numbers only order the steps: one given again after the
            // newest step was taken off is as good as a new one.
            try rebuild(db, "historyStep", as: #""seq" INTEGER PRIMARY KEY, "stack" TEXT NOT NULL, "step" TEXT NOT NULL"#, columns: "seq, stack, step")
        }
        return migrator
    }

    /// Makes `table` again with the column definitions `definition`, and
    /// copies its rows' `columns` across (SQLite's way to change what
    /// `ALTER TABLE` cannot; the table has no index, trigger or view).
    private static func rebuild(_ db: Database, _ table: String, as definition: String, columns: String) throws {
        try db.execute(sql: "CREATE TABLE \"\(table)_rebuilt\" (\(definition))")
        try db.execute(sql: "INSERT INTO \"\(table)_rebuilt\" (\(columns)) SELECT \(columns) FROM \"\(table)\"")
        try db.execute(sql: "DROP TABLE \"\(table)\"")
        try db.execute(sql: "ALTER TABLE \"\(table)_rebuilt\" RENAME TO \"\(table)\"")
    }
}
