import Foundation
import Testing
import TodoProtocol

/// `--version` names the release and, built from a git checkout, the commit:
/// what a bug report needs to name the exact code.
@Suite struct VersionEndToEndTests {
    @Test func bothProgramsNameTheReleaseAndTheCommitBuilt() async throws {
        let todod = try await output(of: Binaries.todod, ["--version"])
        let todoctl = try await output(of: Binaries.todoctl, ["--version"])
        #expect(todod == todoctl)
        #expect(todod.hasPrefix(ReleaseVersion.number + " "), "\(todod)")
        // The checkout these tests were built from; when it is one (CI
        // clones it), its commit is in the version.
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let commit = try? await output(of: URL(fileURLWithPath: "/usr/bin/git"), ["-C", source.path, "rev-parse", "--short=12", "HEAD"])
        if let commit, !commit.isEmpty {
            #expect(todod.hasPrefix("\(ReleaseVersion.number) (commit \(commit)"), "\(todod)")
        }
    }

    private func output(of program: URL, _ arguments: [String]) async throws -> String {
        let stdout = OutputCollector()
        let stderr = OutputCollector()
        let child = try ChildProcess(
            program, arguments, environment: ProcessInfo.processInfo.environment, stdout: stdout, stderr: stderr)
        guard let status = await child.waitForExit(timeout: .seconds(30)) else {
            child.signal(SIGKILL)
            throw TestFailure("\(program.lastPathComponent) \(arguments) did not finish within 30 s")
        }
        await stdout.waitForEndOfFile()
        await stderr.waitForEndOfFile()
        guard status == 0 else { throw TestFailure("\(program.lastPathComponent) exited \(status): \(stderr.text)") }
        return stdout.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
