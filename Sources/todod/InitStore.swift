import ArgumentParser
import Foundation
import Logging
import TodoPostgres
import TodoStorage
import TodoStoreInterface

/// `todod init-store`: makes a new, empty shared list in a PostgreSQL
/// database, the deliberate act todod itself refuses to take on its own
/// (a mistyped database would otherwise start a list nobody else sees).
struct InitStore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init-store",
        abstract: "Make a new, empty shared list in a PostgreSQL database, then exit.",
        discussion: """
            todod refuses to start on a database without a list, so that a mistyped URL does not \
            start a new list in silence. Run this once per shared list, then point every instance's \
            `store =` at the same URL. A database that holds a list already is left as it is.

            Example: todod init-store postgres://todod@db.example/todod
            """)

    @Argument(help: ArgumentHelp("The database: postgres://USER@HOST:PORT/DB (passwords from ~/.pgpass).", valueName: "url"))
    var url: String

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let location: StoreLocation
        do {
            location = try StoreLocation(parsing: url, currentDirectory: FileManager.default.currentDirectoryPath, environment: environment)
        } catch {
            throw ValidationError("\(error)")
        }
        guard case .postgres(let server) = location else {
            throw ValidationError("a SQLite list needs no set-up (todod makes todos.sqlite itself); give postgres://USER@HOST:PORT/DB")
        }
        do {
            let store = try Migrate.open(server, createsList: true, environment, Logger(label: "todod.init-store"))
            defer { store.close() }
            let shared = try store.loadShared()
            if shared.revision == 0, shared.snapshot.items.isEmpty {
                print("the shared list in \(location) is ready (empty); start todod with store = \(location)")
            } else {
                print("\(location) holds a list already (\(shared.snapshot.items.count) items, revision \(shared.revision)); left as it is")
            }
        } catch let unavailable as StoreUnavailable {
            StandardError.write("todod: \(unavailable)\n")
            throw ExitCode(69)  // EX_UNAVAILABLE
        }
    }
}
