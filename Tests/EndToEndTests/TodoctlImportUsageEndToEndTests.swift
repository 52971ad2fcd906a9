import Foundation
import Testing

/// `todoctl import` without a format it can tell: a usage error that says
/// what to add, with import's own usage (not todoctl's).
@Suite struct TodoctlImportUsageEndToEndTests {
    @Test func standardInputNeedsAFormatAndSaysSo() async throws {
        let piped = try await todoctl(arguments: ["import", "-"], socket: "/nonexistent", input: "[]")
        #expect(piped.status == 64, "\(piped)")
        #expect(piped.stderr.contains("standard input has no file name to tell its format: give --format"), "\(piped.stderr)")
        #expect(piped.stderr.contains("Usage: todoctl import "), "\(piped.stderr)")
        let unnamed = try await todoctl("import", "tasks.dat", socket: "/nonexistent")
        #expect(unnamed.status == 64 && unnamed.stderr.contains("tasks.dat does not end in .json, .txt or .ics"), "\(unnamed)")
        #expect(unnamed.stderr.contains("Usage: todoctl import "), "\(unnamed.stderr)")
    }
}
