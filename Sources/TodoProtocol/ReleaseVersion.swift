/// The version of this release of todod and todoctl, which ship together:
/// `todod --version`, `todoctl --version`, the greeting and `server.status`
/// all report it.
public enum ReleaseVersion {
    public static let number = "0.5.0"
}
