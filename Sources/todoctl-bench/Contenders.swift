import BenchmarkSupport
import Foundation

/// The items both contenders hold: item `index` has one tag of 20 and one
/// project of 15, so `+tag3` matches a twentieth of the list and `project:p5`
/// a fifteenth.
enum SeedItems {
    static func tag(_ index: Int) -> String { "tag\(index % 20)" }
    static func project(_ index: Int) -> String { "p\(index % 15)" }
}

/// todod and todoctl with `count` items, seeded over the protocol.
struct TodoctlContender {
    let server: ServerProcess
    let todoctl: String

    init(items count: Int, in parent: URL) throws {
        server = try ServerProcess.todod(in: parent)
        todoctl = ServerProcess.executableDirectory.appendingPathComponent("todoctl").path
        guard FileManager.default.isExecutableFile(atPath: todoctl) else {
            throw BenchmarkError.failed("no todoctl next to the benchmark; build it: swift build -c release --product todoctl")
        }
        // Seed in transactions of 1,000 adds (add shorthand, as `todoctl add`
        // sends): one request, one event, one sync each.
        let connection = try server.connect()
        var next = 0
        while next < count {
            let batch = (next..<min(count, next + 1000)).map {
                #"{"method":"todo.add","params":{"text":"item \#($0) +\#(SeedItems.tag($0)) project:\#(SeedItems.project($0))"}}"#
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
        let tasks = (0..<count).map {
            #"{"uuid":"\#(UUID().uuidString.lowercased())","description":"item \#($0)","status":"pending","entry":"20261101T000000Z","#
                + #""tags":["\#(SeedItems.tag($0))"],"project":"\#(SeedItems.project($0))"}"#
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
