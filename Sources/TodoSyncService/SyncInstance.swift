import Foundation
import TodoProtocol

/// Which todod a sync belongs to, named by that todod's socket.
///
/// Settings, password, state and service are one todod's each: a second
/// todod (another `--socket` and `--data-dir`) set up to sync gets its own,
/// and never reads, overwrites or runs on the first's. Before this, they
/// were one per user: a second `sync add` overwrote the first's settings,
/// and the first list was then synced against the second collection with
/// the agreed versions of the second list, deleting on the server what the
/// first list never held.
///
/// The todod at the default socket (`todod.socket`'s, with `$TODOD_SOCKET`
/// set aside) keeps the places it always had: `~/.config/todod/sync.conf`,
/// `~/.local/state/todod-sync/`, `todod-sync.service`. Any other socket
/// is an instance: its name is the socket's path escaped as `systemd-escape
/// --path` does, so the template unit `todod-sync@.service` gets the path
/// back with `%f`, and its settings and state live in folders of that name.
public struct SyncInstance: Sendable, Equatable {
    /// The escaped socket path; nil for the default socket's todod.
    public let name: String?

    public init(socketPath: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        var standard = environment
        standard[SocketLocation.environmentVariable] = nil
        let defaultSocket = Self.normalized(SocketLocation.defaultPath(environment: standard))
        let socket = Self.normalized(socketPath)
        name = socket == defaultSocket ? nil : Self.escapedPath(socket)
    }

    /// The user unit that runs this sync.
    public var serviceName: String {
        name.map { "todod-sync@\($0).service" } ?? "todod-sync.service"
    }

    /// An absolute path with `.`, `..` and repeated slashes resolved (not
    /// links: the socket may not exist yet), so that two spellings of one
    /// socket are one instance.
    static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `systemd-escape --path PATH`: slashes become `-`, and every byte but
    /// ASCII letters, digits, `:`, `_` and a `.` that does not lead becomes
    /// `\xNN`; the root is `-`. systemd's `%f` turns it back into the path.
    static func escapedPath(_ path: String) -> String {
        let trimmed = path.split(separator: "/").joined(separator: "/")
        guard !trimmed.isEmpty else { return "-" }
        var escaped = ""
        for (offset, byte) in trimmed.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "/"): escaped.append("-")
            case UInt8(ascii: "."):
                escaped += offset == 0 ? "\\x2e" : "."
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: ":"), UInt8(ascii: "_"):
                escaped.append(Character(Unicode.Scalar(byte)))
            default:
                escaped += "\\x" + String(format: "%02x", byte)
            }
        }
        return escaped
    }
}
