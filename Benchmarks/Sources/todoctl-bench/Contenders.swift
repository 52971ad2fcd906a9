import BenchmarkSupport
import Foundation

/// The items both contenders hold: item `index` has one tag of 20 and one
/// project of 15, so `+tag3` matches a twentieth of the list and `project:p5`
/// a fifteenth. A fifth of them are linked: one in ten is in a subtask tree
/// of five (a root, two children, a grandchild under each) and one in ten
/// in a dependency chain of four. Taskwarrior has no subtasks: its tree
/// members depend on their parent instead, so it works out as many links.
enum SeedItems {
    static func tag(_ index: Int) -> String { "tag\(index % 20)" }
    static func project(_ index: Int) -> String { "p\(index % 15)" }

    /// The index of the item `index` is a subtask of, or of the one it
    /// depends on, if any (`parent` true for a subtask).
    static func link(_ index: Int) -> (to: Int, parent: Bool)? {
        switch index % 10 {
        case 0:
            // Tree members are every tenth item; the k-th of a group of five.
            let member = (index / 10) % 5
            let root = index - member * 10
            switch member {
            case 1, 2: return (root, true)
            case 3: return (root + 10, true)
            case 4: return (root + 20, true)
            default: return nil
            }
        case 1:
            let member = (index / 10) % 4
            return member == 0 ? nil : (index - 10, false)
        default: return nil
        }
    }
}

/// todod and todoctl with `count` items, seeded over the protocol.
struct TodoctlContender {
    let server: ServerProcess
    let todoctl: String

    init(items count: Int, in parent: URL) throws {
        server = try ServerProcess.todod(in: parent)
        todoctl = try TodoBinaries.executable("todoctl").path
        // Seed in transactions of 1,000 adds (add shorthand, as `todoctl add`
        // sends): one request, one event, one sync each.
        let connection = try server.connect()
        var next = 0
        while next < count {
            let batch = (next..<min(count, next + 1000)).map { index in
                // Item `index` gets id index + 1.
                let link = SeedItems.link(index).map { $0.parent ? " parent:\($0.to + 1)" : " depends:\($0.to + 1)" } ?? ""
                return #"{"method":"todo.add","params":{"text":"item \#(index) +\#(SeedItems.tag(index)) project:\#(SeedItems.project(index))\#(link)"}}"#
            }
            try connection.send(Array(#"{"jsonrpc":"2.0","id":1,"method":"transaction","params":{"commands":[\#(batch.joined(separator: ","))]}}"#.utf8) + [10])
            let reply = try connection.readLine()
            guard reply.contains(Array(#""result""#.utf8)) else {
                throw BenchmarkError.failed("seeding failed: \(String(decoding: reply.prefix(300), as: UTF8.self))")
            }
            next += batch.count
        }
    }

    func time(_ arguments: [String]) throws -> Double {
        try ProcessTimer.run(todoctl, ["--socket", server.socket] + arguments, environment: ProcessInfo.processInfo.environment)
    }
}

/// Taskwarrior (`task`) with `count` pending tasks in its own data directory,
/// seeded with `task import` (the same titles, tags and projects as todod's).
/// Its rc only turns off questions and chatter.
struct TaskwarriorContender {
    let directory: URL
    let environment: [String: String]

    init(items count: Int, in parent: URL) throws {
        let uuids = (0..<count).map { _ in UUID().uuidString.lowercased() }
        let tasks = (0..<count).map { index in
            let depends = SeedItems.link(index).map { #","depends":["\#(uuids[$0.to])"]"# } ?? ""
            return #"{"uuid":"\#(uuids[index])","description":"item \#(index)","status":"pending","entry":"20261101T000000Z","#
                + #""tags":["\#(SeedItems.tag(index))"],"project":"\#(SeedItems.project(index))"\#(depends)}"#
        }
        try self.init(tasks: tasks, in: parent)
    }

    /// A Taskwarrior seeded with `tasks` (JSON objects as `task import` reads them); none for an empty one.
    init(tasks: [String], in parent: URL) throws {
        directory = parent.appendingPathComponent("task-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let rc = directory.appendingPathComponent("taskrc")
        try "data.location=\(directory.appendingPathComponent("data").path)\nconfirmation=off\nverbose=nothing\nnews.version=2.6.2\n"
            .write(to: rc, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["TASKRC"] = rc.path
        self.environment = environment
        guard !tasks.isEmpty else { return }
        let file = directory.appendingPathComponent("import.json")
        try ("[" + tasks.joined(separator: ",") + "]").write(to: file, atomically: true, encoding: .utf8)
        _ = try ProcessTimer.run("task", ["import", file.path], environment: environment)
    }

    func time(_ arguments: [String]) throws -> Double {
        try ProcessTimer.run("task", arguments, environment: environment)
    }

    /// Writes what `task export` prints to `file`.
    func export(to file: URL) throws {
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["task", "export"]
        process.environment = environment
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError.failed("task export exited \(process.terminationStatus)") }
        try data.write(to: file)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// "task 2.6.2", or nil when Taskwarrior is not installed.
    static var version: String? {
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["task", "--version"]
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return "task " + String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
