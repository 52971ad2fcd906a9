import Foundation
import TodoProtocol
import UserFiles

/// Where todod keeps its data and listens, and the limits it enforces.
public struct DaemonConfiguration: Sendable {
    /// The Unix socket to bind when systemd did not pass one.
    public var socketPath: String
    /// The directory holding `todos.sqlite`.
    public var dataDirectory: String
    /// The longest request line accepted, in bytes; a longer one gets an
    /// error and the connection is closed (a line cannot be resynchronised).
    public var maximumLineLength: Int
    /// How long a started request line may take to finish, in seconds.
    public var lineTimeout: Double = 30
    /// Bytes queued for one client beyond which its events are coalesced.
    public var outboxSoftLimit = 1 << 20
    /// Bytes queued for one client beyond which it is disconnected.
    public var outboxHardLimit = 8 << 20
    /// Seconds with data waiting and nothing written before a client is disconnected.
    public var stallTimeout: Double = 30
    /// Connections served at once; one more is refused with an error.
    public var maximumConnections = 256

    public static let defaultMaximumLineLength = 1 << 20

    public init(socketPath: String, dataDirectory: String, maximumLineLength: Int = defaultMaximumLineLength) {
        self.socketPath = socketPath
        self.dataDirectory = dataDirectory
        self.maximumLineLength = maximumLineLength
    }

    public var databasePath: String { dataDirectory + "/todos.sqlite" }

    /// `$XDG_DATA_HOME/todod`, else `~/.local/share/todod`.
    public static func defaultDataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        BaseDirectories(environment: environment).dataHome + "/todod"
    }

    /// The defaults for this user's session.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> DaemonConfiguration {
        DaemonConfiguration(
            socketPath: SocketLocation.defaultPath(environment: environment),
            dataDirectory: defaultDataDirectory(environment: environment)
        )
    }
}
