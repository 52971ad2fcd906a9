import Foundation
import TestSupport

/// Other programs the interchange tests read and write files with:
/// Taskwarrior, todo.txt's `todo.sh` (Debian's `todo-txt`) and Debian's
/// python3 with `icalendar`. `scripts/bootstrap` installs them; a test that
/// needs one that is missing is skipped, except under CI, where it fails.
enum ExternalPrograms {
    static let task = URL(fileURLWithPath: "/usr/bin/task")
    static let todoTxt = URL(fileURLWithPath: "/usr/bin/todo-txt")
    /// Debian's own python3: its `icalendar` is not in other interpreters' paths.
    static let python = URL(fileURLWithPath: "/usr/bin/python3")

    static var runUnderCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    static func available(_ program: URL) -> Bool {
        runUnderCI || FileManager.default.isExecutableFile(atPath: program.path)
    }

    static var pythonHasICalendar: Bool {
        guard FileManager.default.isExecutableFile(atPath: python.path) else { return runUnderCI }
        let check = Process()
        check.executableURL = python
        check.arguments = ["-c", "import icalendar"]
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return runUnderCI }
        check.waitUntilExit()
        return check.terminationStatus == 0 || runUnderCI
    }
}

/// A Taskwarrior of its own: a data directory and an rc file in a temporary directory.
struct TaskwarriorHome {
    /// Removed, with Taskwarrior's data, when the test that made it ends.
    private let folder: TemporaryDirectory
    var directory: URL { folder.url }

    init() throws {
        folder = try TemporaryDirectory("task")
        let rc = "data.location=\(directory.path)/data\nconfirmation=off\nverbose=nothing\nrecurrence.confirmation=off\nhooks=off\n"
        try rc.write(to: directory.appendingPathComponent("taskrc"), atomically: true, encoding: .utf8)
    }

    /// Runs `task` with this home's rc and returns what it printed.
    @discardableResult
    func task(_ arguments: String...) async throws -> String {
        try await task(arguments: arguments)
    }

    func task(arguments: [String]) async throws -> String {
        try await output(
            of: ExternalPrograms.task, arguments,
            environment: ["TASKRC": file("taskrc"), "TASKDATA": file("data")])
    }

    func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
}
