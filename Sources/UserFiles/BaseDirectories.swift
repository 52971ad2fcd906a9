#if canImport(Glibc)
import Glibc
#endif

/// Where a user's files go, by the XDG Base Directory Specification: the
/// one lookup todod, todoctl, todod-sync and todod-web share, so that they
/// always agree on where todod.conf, the list and the sockets are.
///
/// A variable that is unset, empty or relative is ignored, as the
/// specification says ("If an implementation encounters a relative path
/// in any of these variables it should consider the path invalid"), and
/// the default below the home directory is used instead.
public struct BaseDirectories: Sendable, Equatable {
    /// `$HOME`, else the home directory the password database gives.
    public var home: String
    /// `$XDG_CONFIG_HOME`, else `~/.config`: settings (todod.conf, web.conf, sync.conf).
    public var configHome: String
    /// `$XDG_DATA_HOME`, else `~/.local/share`: the list.
    public var dataHome: String
    /// `$XDG_STATE_HOME`, else `~/.local/state`: what todod-sync and todod-web keep.
    public var stateHome: String
    /// `$XDG_RUNTIME_DIR`, else `/run/user/UID`, where systemd makes it when
    /// the variable is missing (under `sudo -u`, say): the sockets.
    public var runtimeDirectory: String
    /// `$XDG_RUNTIME_DIR` when it is set (and absolute, as the specification
    /// asks): for what may go elsewhere when there is none.
    public var givenRuntimeDirectory: String?

    public init(environment: [String: String]) {
        self.init { environment[$0] }
    }

    /// From `variable`, which reads one environment variable (by default
    /// this process's: `getenv`, without Foundation).
    public init(variable: (String) -> String? = BaseDirectories.processVariable) {
        let home = variable("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? Self.homeOfThisUser()
        func base(_ name: String, _ fallback: String) -> String {
            variable(name).flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/" + fallback
        }
        self.home = home
        configHome = base("XDG_CONFIG_HOME", ".config")
        dataHome = base("XDG_DATA_HOME", ".local/share")
        stateHome = base("XDG_STATE_HOME", ".local/state")
        givenRuntimeDirectory = variable("XDG_RUNTIME_DIR").flatMap { $0.hasPrefix("/") ? $0 : nil }
        runtimeDirectory = givenRuntimeDirectory ?? "/run/user/\(getuid())"
    }

    /// One environment variable of this process.
    public static func processVariable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    private static func homeOfThisUser() -> String {
        guard let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir else { return "/" }
        return String(cString: directory)
    }
}
