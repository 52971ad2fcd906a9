import ArgumentParser
import Foundation
import Logging
import TodoPostgres
import TodoStorage

/// `todod migrate`: moves a list from its SQLite file into PostgreSQL, so
/// that several instances can share it.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a list from its SQLite file into PostgreSQL, in one transaction.",
        discussion: """
            Copies the items with their ids, the undo and redo history, the shared views and the \
            reminders. A target that already holds a list is refused unless --force is given. \
            Stop the todod instances on the target first; the source can stay in use (it is only read).

            Example: todod migrate --from sqlite:$HOME/.local/share/todod/todos.sqlite \
            --to postgres://todod@db.example/todod
            """)

    @Option(help: ArgumentHelp("The list to copy: sqlite:PATH.", valueName: "url"))
    var from: String

    @Option(help: ArgumentHelp("Where to copy it: postgres://USER@HOST:PORT/DB (passwords from ~/.pgpass).", valueName: "url"))
    var to: String

    @Flag(help: "Replace a list the target already holds.")
    var force = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let here = FileManager.default.currentDirectoryPath
        guard case .sqlite(let path) = try parse(from, environment, here) else {
            throw ValidationError("--from must be sqlite:PATH, the list to copy")
        }
        guard case .postgres(let server) = try parse(to, environment, here) else {
            throw ValidationError("--to must be postgres://USER@HOST:PORT/DB, the shared store to copy into")
        }
        // Opening a missing file would create an empty list and copy nothing.
        guard FileManager.default.fileExists(atPath: path) else {
            throw ValidationError("--from: there is no list at \(path)")
        }
        let snapshot = try SQLiteTodoStore(path: path).load()
        let logger = Logger(label: "todod.migrate")
        do {
            let (password, warning) = try server.password(environment: environment)
            if let warning { StandardError.write("todod: \(warning)\n") }
            let target = try PostgresListStore(
                configuration: try server.configuration(password: password), server: StoreLocation.postgres(server).description,
                instance: "migrate", logger: logger)
            defer { target.close() }
            let count = try target.replaceList(with: snapshot, force: force)
            print(
                "copied \(count) items, \(snapshot.history.undoSteps.count + snapshot.history.redoSteps.count) undo steps, "
                    + "\(snapshot.viewSettings.count) views from \(path) to \(StoreLocation.postgres(server))")
        } catch let refused as PostgresListStore.TargetNotEmpty {
            StandardError.write("todod: \(refused)\n")
            throw ExitCode(73)  // EX_CANTCREAT
        } catch let unavailable as StoreUnavailable {
            StandardError.write("todod: \(unavailable)\n")
            throw ExitCode(69)  // EX_UNAVAILABLE
        }
    }

    private func parse(_ text: String, _ environment: [String: String], _ here: String) throws -> StoreLocation {
        do {
            return try StoreLocation(parsing: text, currentDirectory: here, environment: environment)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}

/// Messages for people, on standard error.
enum StandardError {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
