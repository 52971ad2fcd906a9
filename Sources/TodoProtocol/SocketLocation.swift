import FoundationEssentials
import UserFiles

/// Where todod listens by default, so the daemon, `todoctl` and the systemd
/// socket unit (`%t/todod/todod.sock`) agree without configuration.
public enum SocketLocation {
    /// The environment variable that overrides the default socket path for
    /// both the daemon and `todoctl` (the `--socket` option overrides both).
    public static let environmentVariable = "TODOD_SOCKET"

    /// `$TODOD_SOCKET`, else `$XDG_RUNTIME_DIR/todod/todod.sock`, else
    /// `/run/user/UID/todod/todod.sock` (where systemd puts the runtime
    /// directory when the variable is missing, e.g. under `sudo -u`).
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment[environmentVariable], !path.isEmpty {
            return path
        }
        return BaseDirectories(environment: environment).runtimeDirectory + "/todod/todod.sock"
    }
}
