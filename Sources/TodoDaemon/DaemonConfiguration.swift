import Foundation
import TodoProtocol

/// Where todod keeps its data and listens, and the limits it enforces.
public struct DaemonConfiguration: Sendable {
    /// The Unix socket to bind when systemd did not pass one.
    public var socketPath: String
    /// The directory holding `todos.sqlite`.
    public var dataDirectory: String
    /// The longest request line accepted, in bytes; a longer one gets an
    /// error and the connection is closed (a line cannot be resynchronised).
    public var maximumLineLength: Int

    public static let defaultMaximumLineLength = 1 << 20

    public init(socketPath: String, dataDirectory: String, maximumLineLength: Int = defaultMaximumLineLength) {
        self.socketPath = socketPath
        self.dataDirectory = dataDirectory
        self.maximumLineLength = maximumLineLength
    }

    public var databasePath: String { dataDirectory + "/todos.sqlite" }

    /// `$XDG_DATA_HOME/todod`, else `~/.local/share/todod`.
    public static func defaultDataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return dataHome + "/todod"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/todod"
    }

    /// The defaults for this user's session.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> DaemonConfiguration {
        DaemonConfiguration(
            socketPath: SocketLocation.defaultPath(environment: environment),
            dataDirectory: defaultDataDirectory(environment: environment)
        )
    }
}
