/// The version of this release of todod and todoctl, which ship together:
/// `todod --version`, `todoctl --version`, the greeting and `server.status`
/// all report it. The one place it is written: packaging scripts read it
/// from here, and CHANGELOG.md has a section for each.
///
/// Here, beside the commit, because it says what was built: the daemon
/// reports it and the executables print it, and neither needs the protocol
/// for that (BuildInfo depends on nothing of the package).
public enum ReleaseVersion {
    public static let number = "0.6.0"
}
