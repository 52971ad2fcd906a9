import ArgumentParser
import Foundation
import Logging
import TodoDaemon
import TodoPostgres
import TodoStorage
import TodoStoreInterface
import TodoViewModels

/// `todod migrate`: moves a list between its SQLite file and PostgreSQL, in
/// either direction, or adds one list's items to a shared one (`--merge`).
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a list between SQLite and PostgreSQL in one transaction, or merge its items into a shared list.",
        discussion: """
            Copies the items with their ids, the undo and redo history, the shared views and the \
            reminders. A target that already holds a list is refused unless --force is given, and a \
            shared list that running todod instances serve is refused even then, unless --while-running \
            is given too: those instances then reload the copy, each saving aside what it held that the \
            copy lacks. The source can stay in use (it is only read).

            --merge adds the source's items to a shared list instead, with new ids, as one undo step, \
            while its instances run; a list merged once is refused the second time.

            Examples:
              todod migrate --from sqlite:$HOME/.local/share/todod/todos.sqlite --to postgres://todod@db.example/todod
              todod migrate --from postgres://todod@db.example/postgres --to sqlite:$HOME/rescued.sqlite
              todod migrate --merge --from sqlite:$HOME/.local/share/todod/todos.sqlite --to postgres://todod@db.example/todod
            """)

    @Option(help: ArgumentHelp("The list to copy: sqlite:PATH or postgres://USER@HOST:PORT/DB.", valueName: "url"))
    var from: String

    @Option(help: ArgumentHelp("Where to copy it: sqlite:PATH or postgres://USER@HOST:PORT/DB (passwords from ~/.pgpass).", valueName: "url"))
    var to: String

    @Flag(help: "Replace a list the target already holds.")
    var force = false

    @Flag(help: "With --force: replace a shared list even while todod instances serve it (they reload it).")
    var whileRunning = false

    @Flag(help: "Add the source's items to the shared list (new ids, one undo step) instead of replacing it.")
    var merge = false

    func validate() throws {
        if merge, force { throw ValidationError("--merge adds to the target's list and --force replaces it: give one of them") }
        if whileRunning, !force { throw ValidationError("--while-running goes with --force: only replacing a list needs its instances stopped") }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let here = FileManager.default.currentDirectoryPath
        let source = try parse(from, "--from", environment, here)
        let target = try parse(to, "--to", environment, here)
        guard source.description != target.description else { throw ValidationError("--from and --to name the same list") }
        let logger = Logger(label: "todod.migrate")
        do {
            let snapshot = try load(source, environment, logger)
            switch target {
            case .postgres(let server):
                let store = try Self.open(server, createsList: !merge, environment, logger)
                defer { store.close() }
                if merge {
                    print(try Self.merge(snapshot, from: source.description, into: store, at: target.description))
                } else {
                    let count = try store.replaceList(with: snapshot, force: force, whileRunning: whileRunning)
                    print(Self.copied(count, snapshot, from: source, to: target))
                }
            case .sqlite(let path):
                guard !merge else { throw ValidationError("--merge adds to a shared list: --to must be postgres://USER@HOST:PORT/DB") }
                let directory = (path as NSString).deletingLastPathComponent
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                // A todod serving this file would go on with the list it loaded and write over the copy.
                let lock = try DataDirectoryLock(directory: directory)
                defer { withExtendedLifetime(lock) {} }
                let store = try SQLiteTodoStore(path: path)
                defer { try? store.close() }
                let count = try store.replaceList(with: snapshot, force: force)
                print(Self.copied(count, snapshot, from: source, to: target))
            }
        } catch let refused as DataDirectoryLock.Failure {
            StandardError.write("todod: \(refused)\n")
            throw ExitCode(DataDirectoryLock.exitCode)
        } catch let error as any Error & CustomStringConvertible where Self.isRefusal(error) {
            StandardError.write("todod: \(error)\n")
            throw ExitCode(73)  // EX_CANTCREAT
        } catch let unavailable as StoreUnavailable {
            StandardError.write("todod: \(unavailable)\n")
            throw ExitCode(69)  // EX_UNAVAILABLE
        } catch let noList as PostgresListStore.NoListHere {
            StandardError.write("todod: \(noList)\n")
            throw ExitCode(66)  // EX_NOINPUT
        }
    }

    /// The target holds something the command will not replace or add to twice.
    private static func isRefusal(_ error: any Error) -> Bool {
        error is PostgresListStore.TargetNotEmpty || error is PostgresListStore.InstancesRunning
            || error is PostgresListStore.AlreadyMerged || error is SQLiteTodoStore.TargetNotEmpty || error is SameList
    }

    private static func copied(_ count: Int, _ snapshot: ListSnapshot, from source: StoreLocation, to target: StoreLocation) -> String {
        "copied \(count) items, \(snapshot.history.undoSteps.count + snapshot.history.redoSteps.count) undo steps, "
            + "\(snapshot.viewSettings.count) views from \(source) to \(target)"
    }

    /// The source list, read without writing to it.
    private func load(_ source: StoreLocation, _ environment: [String: String], _ logger: Logger) throws -> ListSnapshot {
        switch source {
        case .sqlite(let path):
            // Opening a missing file would create an empty list and copy nothing.
            guard FileManager.default.fileExists(atPath: path) else { throw ValidationError("--from: there is no list at \(path)") }
            return try SQLiteTodoStore(path: path).load()
        case .postgres(let server):
            let store = try Self.open(server, createsList: false, environment, logger)
            defer { store.close() }
            return try store.loadShared().snapshot
        }
    }

    static func open(_ server: PostgresLocation, createsList: Bool, _ environment: [String: String], _ logger: Logger) throws
        -> PostgresListStore
    {
        let (password, warning) = try server.password(environment: environment)
        if let warning { StandardError.write("todod: \(warning)\n") }
        return try PostgresListStore(
            configuration: try server.configuration(password: password), server: StoreLocation.postgres(server).description,
            instance: "migrate", createsList: createsList, logger: logger)
    }

    private func parse(_ text: String, _ option: String, _ environment: [String: String], _ here: String) throws -> StoreLocation {
        do {
            return try StoreLocation(parsing: text, currentDirectory: here, environment: environment)
        } catch {
            throw ValidationError("\(option): \(error)")
        }
    }
}

/// Messages for people, on standard error.
enum StandardError {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
