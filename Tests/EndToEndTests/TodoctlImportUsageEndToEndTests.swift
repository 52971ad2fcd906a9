import Foundation
import TestSupport
import Testing

/// `todoctl import` without a format it can tell: a usage error that says
/// what to add, with import's own usage (not todoctl's).
@Suite struct TodoctlImportUsageEndToEndTests {
    @Test func standardInputNeedsAFormatAndSaysSo() async throws {
        let piped = try await todoctl(arguments: ["import", "-"], socket: "/nonexistent", input: "[]")
        #expect(piped.status == 64, "\(piped)")
        #expect(piped.stderr.contains("standard input has no file name to tell its format: give --format"), "\(piped.stderr)")
        #expect(piped.stderr.contains("Usage: todoctl import "), "\(piped.stderr)")
        let folder = try TemporaryDirectory("todoctl-import-usage")
        let tasks = folder.file("tasks.dat")
        try Data("[]".utf8).write(to: URL(fileURLWithPath: tasks))
        let unnamed = try await todoctl("import", tasks, socket: "/nonexistent")
        #expect(unnamed.status == 64 && unnamed.stderr.contains("tasks.dat does not end in .json, .txt or .ics"), "\(unnamed)")
        #expect(unnamed.stderr.contains("Usage: todoctl import "), "\(unnamed.stderr)")
    }

    /// A path that is not there is said to be missing (66, as for a file
    /// with a known ending), not asked for a format.
    @Test func aMissingPathIsSaidToBeMissing() async throws {
        let folder = try TemporaryDirectory("todoctl-import-missing")
        for path in [folder.file("nosuchdir"), folder.file("nosuch.json")] {
            let missing = try await todoctl("import", path, socket: "/nonexistent")
            #expect(missing.status == 66, "\(missing)")
            #expect(missing.stderr == "todoctl: cannot import \(path): no such file or directory; nothing was imported\n", "\(missing)")
        }
    }
}
