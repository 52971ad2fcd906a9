/// What `todod --version` and `todoctl --version` print: the release number,
/// and the git commit when built from a checkout ("0.6.0 (commit
/// 1a2b3c4d5e6f)"), so a bug report can name the exact code. `BuildCommit`
/// is written before each build by `BuildCommitPlugin`.
public enum VersionText {
    public static let full = ReleaseVersion.number + (BuildCommit.description.map { " (commit \($0))" } ?? "")
}
