import Foundation
import UserFiles

/// Where the sync keeps what it is told and what it knows, and what it is
/// told: the collection, the user, a CA file, the interval.
///
/// `sync.conf` holds no secret: the password is a file of its own,
/// readable by the user only (`sync.password`, mode 0600), so it is never
/// in todod.conf, a command line (`ps`) or a log. The state (what was last
/// agreed with the server) is under `$XDG_STATE_HOME/todod-sync`, where
/// the service and `todoctl sync status` both find it.
public struct SyncSettings: Sendable, Equatable {
    public var collectionURL: String
    public var user: String
    public var caFile: String?
    /// Seconds between polls of the server.
    public var interval: Int
    public static let defaultInterval = 30

    public init(collectionURL: String, user: String, caFile: String? = nil, interval: Int = defaultInterval) {
        self.collectionURL = collectionURL
        self.user = user
        self.caFile = caFile
        self.interval = interval
    }

    /// `key = value` lines, read as every settings file is (`SettingsFile`).
    public init(parsing text: String, from path: String) throws(SyncSetupError) {
        var values: [String: String] = [:]
        let lines: [SettingsLine]
        do { lines = try SettingsFile.lines(of: text, path: path) } catch { throw SyncSetupError(error.description) }
        for line in lines {
            guard ["url", "user", "ca-file", "interval"].contains(line.key) else {
                throw SyncSetupError(line.problem("unknown setting '\(line.key)' (url, user, ca-file, interval)"))
            }
            values[line.key] = line.value
        }
        guard let url = values["url"], let user = values["user"] else { throw SyncSetupError("\(path) needs url and user") }
        var interval = Self.defaultInterval
        if let text = values["interval"] {
            guard let seconds = Int(text), (5...86_400).contains(seconds) else {
                throw SyncSetupError("\(path): interval must be seconds from 5 to 86400, not \(text)")
            }
            interval = seconds
        }
        self.init(collectionURL: url, user: user, caFile: values["ca-file"], interval: interval)
    }

    public var text: String {
        var lines = [
            "# todod-sync: the calendar collection this list syncs with (todoctl sync add).",
            "# The password is in sync.password beside this file, readable by you only.",
            "url = \(collectionURL)", "user = \(user)", "interval = \(interval)",
        ]
        if let caFile { lines.append("ca-file = \(caFile)") }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The files the sync reads and writes, one todod's (see `SyncInstance`).
public struct SyncPaths: Sendable {
    public var configDirectory: String
    public var stateDirectory: String
    public var socketPath: String
    /// Which todod's sync these are, and so which unit runs it.
    public var instance: SyncInstance

    public var settingsFile: String { configDirectory + "/sync.conf" }
    public var passwordFile: String { configDirectory + "/sync.password" }
    public var stateFile: String { stateDirectory + "/sync.sqlite" }

    public init(configDirectory: String, stateDirectory: String, socketPath: String, instance: SyncInstance) {
        self.configDirectory = configDirectory
        self.stateDirectory = stateDirectory
        self.socketPath = socketPath
        self.instance = instance
    }

    /// The default socket's todod: `~/.config/todod/sync.conf` and
    /// `~/.local/state/todod-sync/`. Another socket's:
    /// `~/.config/todod/sync/INSTANCE/sync.conf` and
    /// `~/.local/state/todod-sync/INSTANCE/`.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment, socketPath: String) -> SyncPaths {
        let directories = BaseDirectories(environment: environment)
        let instance = SyncInstance(socketPath: socketPath, environment: environment)
        let config = directories.configHome + "/todod" + (instance.name.map { "/sync/" + $0 } ?? "")
        let state = directories.stateHome + "/todod-sync" + (instance.name.map { "/" + $0 } ?? "")
        return SyncPaths(configDirectory: config, stateDirectory: state, socketPath: socketPath, instance: instance)
    }

    /// The settings, or nil when the sync was never set up.
    public func settings() throws(SyncSetupError) -> SyncSettings? {
        guard let data = FileManager.default.contents(atPath: settingsFile) else { return nil }
        return try SyncSettings(parsing: String(decoding: data, as: UTF8.self), from: settingsFile)
    }

    /// The password, from a file only its owner may read: one others can
    /// read is refused, as ssh refuses such a key.
    public func password() throws(SyncSetupError) -> String {
        var info = stat()
        guard stat(passwordFile, &info) == 0 else {
            throw SyncSetupError("\(passwordFile) is missing: run todoctl sync add again")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw SyncSetupError("\(passwordFile) can be read by others (mode \(String(info.st_mode & 0o777, radix: 8))): chmod 600 it")
        }
        guard let data = FileManager.default.contents(atPath: passwordFile) else { throw SyncSetupError("cannot read \(passwordFile)") }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    /// Writes the settings and the password, each readable by the user only.
    public func save(_ settings: SyncSettings, password: String) throws(SyncSetupError) {
        do {
            try FileManager.default.createDirectory(atPath: configDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try Self.writePrivately(Data((password + "\n").utf8), to: passwordFile)
            try Self.writePrivately(Data(settings.text.utf8), to: settingsFile)
        } catch let error as SyncSetupError {
            throw error
        } catch {
            throw SyncSetupError("cannot write \(configDirectory): \(error.localizedDescription)")
        }
    }

    /// Removes the settings, the password and the state.
    public func remove() {
        for path in [settingsFile, passwordFile, stateFile, stateFile + "-wal", stateFile + "-shm"] { unlink(path) }
    }

    /// Replaces the password alone, readable by the user only.
    public func savePassword(_ password: String) throws(SyncSetupError) {
        do {
            try Self.writePrivately(Data((password + "\n").utf8), to: passwordFile)
        } catch let error as SyncSetupError {
            throw error
        } catch {
            throw SyncSetupError("cannot write \(passwordFile): \(error.localizedDescription)")
        }
    }

    /// A file created 0600 (never readable by others, not even for a moment), replacing any.
    private static func writePrivately(_ data: Data, to path: String) throws {
        let temporary = path + ".new"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SyncSetupError("cannot create \(temporary): \(String(cString: strerror(errno)))") }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        fsync(descriptor)
        close(descriptor)
        guard written == data.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw SyncSetupError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}

/// A set-up that cannot be used, said so that the person can fix it.
public struct SyncSetupError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
