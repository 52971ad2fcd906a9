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
        return migrator
    }
}
