import UserFiles

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
    public static func standard(environment: (String) -> String? = BaseDirectories.processVariable) -> WebPaths {
        let directories = BaseDirectories(variable: environment)
        return WebPaths(
            settingsFile: directories.configHome + "/todod/web.conf", stateDirectory: directories.stateHome + "/todod-web")
    }
}
