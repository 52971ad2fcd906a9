import Foundation
import TestSupport

/// A database path, `todos.sqlite`, in a temporary folder of its own that is
/// removed whole when the last reference to it goes: at the end of the test
/// whose suite instance holds it, passed or failed. The folder, not the
/// file, is what goes, so SQLite's `-wal` and `-shm` go with the database.
final class TemporaryDatabase: Sendable {
    let folder: TemporaryDirectory
    var directory: URL { folder.url }
    /// Not yet made: the store makes it.
    let path: String

    init(_ purpose: String) throws {
        folder = try TemporaryDirectory(purpose)
        path = folder.file("todos.sqlite")
    }

    /// Another database's path in the same folder, for a test that needs two.
    func path(of name: String) -> String {
        folder.file(name)
    }
}
