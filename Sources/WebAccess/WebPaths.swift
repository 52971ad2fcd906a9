#if canImport(Glibc)
import Glibc
#endif

/// Where todod-web reads its settings and keeps its key, shared by
/// `todod-web` and `todoctl web` so that both always agree.
///
/// The settings are `$XDG_CONFIG_HOME/todod/web.conf`, beside todod.conf. The
/// key is state, not a setting: `$XDG_STATE_HOME/todod-web/token`, in a
/// directory of its own that todod-web.service may write while the rest of
/// the home directory stays read-only to it.
public struct WebPaths: Sendable, Equatable {
    public var settingsFile: String
    public var stateDirectory: String

    public var tokenFile: String { stateDirectory + "/token" }

    public init(settingsFile: String, stateDirectory: String) {
        self.settingsFile = settingsFile
        self.stateDirectory = stateDirectory
    }

    /// The standard places, from `HOME`, `XDG_CONFIG_HOME` and `XDG_STATE_HOME`
    /// (relative XDG values are ignored, as the base-directory spec says).
    public static func standard(environment: (String) -> String? = WebPaths.variable) -> WebPaths {
        let home = environment("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? homeOfThisUser()
        func base(_ name: String, _ fallback: String) -> String {
            environment(name).flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/" + fallback
        }
        return WebPaths(
            settingsFile: base("XDG_CONFIG_HOME", ".config") + "/todod/web.conf",
            stateDirectory: base("XDG_STATE_HOME", ".local/state") + "/todod-web")
    }

    /// One environment variable of this process.
    public static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    private static func homeOfThisUser() -> String {
        guard let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir else { return "/" }
        return String(cString: directory)
    }
}
