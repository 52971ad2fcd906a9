import BuildInfo

/// The daemon's own version, as the greeting and `server.status` report it.
public enum DaemonVersion {
    public static let current = "todod \(ReleaseVersion.number)"
}
