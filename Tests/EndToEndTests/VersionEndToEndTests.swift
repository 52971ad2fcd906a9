import Foundation
import Testing
import BuildInfo

/// `--version` names the release and, built from a git checkout, the commit:
/// what a bug report needs to name the exact code.
@Suite struct VersionEndToEndTests {
    @Test func bothProgramsNameTheReleaseAndTheCommitBuilt() async throws {
        let todod = try await output(of: Binaries.todod, ["--version"])
        let todoctl = try await output(of: Binaries.todoctl, ["--version"])
        #expect(todod == todoctl)
        #expect(todod == ReleaseVersion.number || todod.hasPrefix(ReleaseVersion.number + " (commit "), "\(todod)")
        // The checkout these tests were built from; when it is one (CI
        // clones it), its commit is in the version.
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let commit = try? await output(of: URL(fileURLWithPath: "/usr/bin/git"), ["-C", source.path, "rev-parse", "--short=12", "HEAD"])
        if let commit, !commit.isEmpty {
            #expect(todod.hasPrefix("\(ReleaseVersion.number) (commit \(commit)"), "\(todod)")
        }
    }
}
