import Foundation
import Logging
import TodoDaemon
import TodoPostgres
import TodoStorage
import TodoStoreInterface

/// The store todod was told to use (`--store`, `store =`), opened.
struct OpenedStore {
    var store: any ListStore
    /// What `server.status` and the journal call it: a path, or the server without secrets.
    var location: String
    /// On shutdown, after the last write: SQLite folds its log into the file.
    var finish: () throws -> Void
    var close: () -> Void

    /// Opens the store `text` names, or todos.sqlite in `dataDirectory`. A
    /// PostgreSQL database that holds no list yet gets one only when
    /// `createsSharedList` (`--init-store`).
    /// Errors are meant for the journal, and name what to fix.
    static func open(
        _ text: String?, dataDirectory: String, instance: String, environment: [String: String], createsSharedList: Bool = false,
        patience: Double = 60, waiting: (String) -> Void = { _ in }, logger: Logger
    ) throws -> OpenedStore {
        let location: StoreLocation
        if let text {
            location = try StoreLocation(
                parsing: text, currentDirectory: FileManager.default.currentDirectoryPath, environment: environment)
        } else {
            location = .sqlite(path: DaemonConfiguration(socketPath: "", dataDirectory: dataDirectory).databasePath)
        }
        switch location {
        case .sqlite(let path):
            let store = try SQLiteTodoStore(path: path)
            return OpenedStore(store: store, location: path, finish: { try store.checkpoint() }, close: { try? store.close() })
        case .postgres(let server):
            let store = try waitForServer(location.description, patience: patience, waiting: waiting, logger: logger) {
                // Read again on every try: a password file fixed meanwhile is used.
                let (password, warning) = try server.password(environment: environment)
                if let warning { logger.warning("\(warning)") }
                return try PostgresListStore(
                    configuration: try server.configuration(password: password), server: location.description, instance: instance,
                    createsList: createsSharedList, logger: logger)
            }
            return OpenedStore(store: store, location: location.description, finish: {}, close: { store.close() })
        }
    }

    /// Connects, trying again with growing pauses while the server cannot be
    /// reached, for at most `patience` seconds (a server starting with the
    /// machine, a network coming up). todod is not ready before it has the
    /// list: without it, it could serve neither reads nor edits. `waiting`
    /// says what it waits for (systemd's status line).
    private static func waitForServer(
        _ server: String, patience: Double, waiting: (String) -> Void, logger: Logger,
        connect: () throws -> PostgresListStore
    ) throws -> PostgresListStore {
        let deadline = Date().addingTimeInterval(patience)
        var pause = 0.25
        while true {
            do {
                return try connect()
            } catch let unavailable as StoreUnavailable where Date().addingTimeInterval(pause) < deadline {
                waiting("waiting for the store: \(unavailable)")
                logger.warning("waiting for the store", metadata: ["store": "\(server)", "problem": "\(unavailable)"])
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 5)
            }
        }
    }

    /// The machine's name: an instance's default name in a shared list.
    static var hostName: String {
        var buffer = [UInt8](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "todod" }
        let name = String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
        return name.isEmpty ? "todod" : name
    }
}
