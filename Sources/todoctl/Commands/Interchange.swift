import ArgumentParser
import FoundationEssentials
import Glibc
import TodoClient
import TodoInterchange
import TodoModel
import TodoProtocol
import UserFiles

extension InterchangeFormat: ExpressibleByArgument {}

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a Taskwarrior export or 2.x data directory, a todo.txt file or an iCalendar file, as one undo step.",
        discussion: """
            The whole file is imported or nothing is: a line or item todod cannot take is named with its problem. \
            Importing the same file again updates the items it brought (by Taskwarrior UUID, iCalendar UID or \
            todo.txt line) instead of adding them twice. `todoctl undo` takes the whole import back.

            --dry-run prints what each item would become, and what cannot be carried over, and changes nothing. \
            Without --format, the format follows the file's extension: .json Taskwarrior, .txt todo.txt, .ics iCalendar.

            A directory (such as ~/.task) is read as Taskwarrior 2.x data: its pending.data and completed.data, \
            without Taskwarrior, as `task export` would print them. That is the way over for 2.x data that \
            Taskwarrior 3 cannot read; a problem is named by file and line (pending.data line 12).

            Examples: `task export | todoctl import --format taskwarrior -`, `todoctl import ~/.task`, \
            `todoctl import ~/todo/todo.txt`, `todoctl import --dry-run calendar.ics`.
            """)

    @ParentCommand var todoctl: Todoctl

    @Option(help: "taskwarrior, todotxt or ical.")
    var format: InterchangeFormat?

    @Flag(help: "Say what would be imported, change nothing.")
    var dryRun = false

    @Argument(help: "The file to import, - for standard input, or a Taskwarrior 2.x data directory (~/.task).", completion: .file())
    var file: String

    /// Here, not in run: a usage error from validate is shown with
    /// import's own usage, not todoctl's.
    func validate() throws {
        // A path that is not there is that, whatever its name would say.
        if file != "-", access(file, F_OK) != 0, errno == ENOENT, !file.hasSuffix(".task") {
            ClientFailure.printError("todoctl: cannot import \(file): no such file or directory; nothing was imported")
            throw ExitCode(ClientFailure.notFound)
        }
        if Self.isTaskwarriorDataDirectory(file) {
            guard let format, format != .taskwarrior else { return }
            throw ValidationError(
                "\(file) is a Taskwarrior 2.x data directory, which imports as taskwarrior: leave out --format \(format.rawValue)")
        }
        guard format == nil, Self.format(ofFile: file) == nil else { return }
        if file == "-" {
            throw ValidationError("standard input has no file name to tell its format: give --format taskwarrior, todotxt or ical")
        }
        let name = String(file.split(separator: "/").last ?? "")
        if TaskwarriorDataDirectory.taskFiles.contains(name) {
            let directory = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            throw ValidationError(
                "\(file) is one file of a Taskwarrior 2.x data directory: import the whole directory, "
                    + "todoctl import \(directory.isEmpty ? "." : directory)")
        }
        throw ValidationError(
            "\(file) does not end in .json, .txt or .ics: say which format it is in with --format taskwarrior, todotxt or ical")
    }

    func run() async throws {
        if Self.isTaskwarriorDataDirectory(file) { return try await importDataDirectory() }
        guard let format = format ?? Self.format(ofFile: file) else { throw ExitCode.validationFailure }
        let text = try Self.read(file, as: format)
        let dryRun = self.dryRun
        let result = try await withDaemon(todoctl.connection) { daemon in
            try await Self.send(text, format: format, dryRun: dryRun, to: daemon)
        }
        print(Self.report(result, format: format, dryRun: dryRun), terminator: "")
    }

    /// A Taskwarrior 2.x data directory is read here, into what `task export`
    /// would print, and imported as that; todod's "task 12" in what it says
    /// back becomes the file and line the task is on.
    private func importDataDirectory() async throws {
        let directory = try Self.readDataDirectory(file)
        let dryRun = self.dryRun
        var result = try await withDaemon(todoctl.connection) { daemon in
            do {
                return try await Self.send(directory.exportText, format: .taskwarrior, dryRun: dryRun, to: daemon)
            } catch ClientError.refused(var error) {
                error.message = directory.locating(error.message)
                throw ClientError.refused(error)
            }
        }
        for index in result.items.indices { result.items[index].source = directory.locating(result.items[index].source) }
        print(Self.report(result, format: .taskwarrior, dryRun: dryRun), terminator: "")
    }

    /// A directory, or a path ending in .task (`~/.task` even when it is not
    /// there, so that the error says so rather than asking for a format).
    static func isTaskwarriorDataDirectory(_ path: String) -> Bool {
        guard path != "-" else { return false }
        var status = stat()
        if stat(path, &status) == 0 { return status.st_mode & S_IFMT == S_IFDIR }
        return path.split(separator: "/").last?.hasSuffix(".task") ?? false
    }

    static func format(ofFile path: String) -> InterchangeFormat? {
        let name = path.split(separator: "/").last ?? ""
        let pathExtension = name.dropFirst().contains(".") ? name.split(separator: ".").last.map(String.init) ?? "" : ""
        return switch pathExtension.lowercased() {
        case "json": .taskwarrior
        case "txt": .todotxt
        case "ics", "ical", "ifb", "icalendar": .ical
        default: nil
        }
    }

    private static func read(_ path: String, as format: InterchangeFormat) throws -> String {
        let data: Data
        if path == "-" {
            data = Data(StandardStreams.readAll())
        } else {
            guard let read = FileManager.default.contents(atPath: path) else {
                ClientFailure.printError("todoctl: cannot read \(path): \(FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")")
                throw ExitCode(ClientFailure.notFound)
            }
            data = read
        }
        guard let text = format.text(decoding: data) else {
            ClientFailure.printError("todoctl: \(path == "-" ? "standard input" : path) is not UTF-8 text; nothing was imported")
            throw ExitCode(ClientFailure.refusedInput)
        }
        return text
    }

    /// The directory's task files, read into the export text. With neither
    /// file there, nothing is imported and the exit is 66, as for a missing file.
    private static func readDataDirectory(_ path: String) throws -> TaskwarriorDataDirectory {
        var files: [TaskwarriorDataDirectory.DataFile] = []
        for name in TaskwarriorDataDirectory.taskFiles {
            let filePath = path.hasSuffix("/") ? path + name : path + "/" + name
            if let data = FileManager.default.contents(atPath: filePath) {
                files.append(.init(name: name, bytes: Array(data)))
            } else if FileManager.default.fileExists(atPath: filePath) {
                ClientFailure.printError("todoctl: cannot read \(filePath): permission denied; nothing was imported")
                throw ExitCode(ClientFailure.notFound)
            }
        }
        guard !files.isEmpty else {
            let reason =
                FileManager.default.fileExists(atPath: path)
                ? "it holds neither pending.data nor completed.data, so it is not a Taskwarrior 2.x data directory"
                : "no such directory"
            ClientFailure.printError("todoctl: cannot import \(path): \(reason); nothing was imported")
            throw ExitCode(ClientFailure.notFound)
        }
        do {
            return try TaskwarriorDataDirectory(files: files, userAttributeTypes: taskrcAttributeTypes())
        } catch {
            ClientFailure.printError("todoctl: Nothing was imported: \(error)" + (error.message.hasSuffix(".") ? "" : "."))
            throw ExitCode(ClientFailure.refusedInput)
        }
    }

    /// The types of user-defined attributes in the taskrc Taskwarrior 2.6
    /// would read ($TASKRC, else ~/.taskrc, else $XDG_CONFIG_HOME/task/taskrc),
    /// so that a date or numeric UDA comes over as `task export` writes it.
    /// Without an rc, UDAs come over as stored.
    private static func taskrcAttributeTypes() -> [String: String] {
        let environment = ProcessInfo.processInfo.environment
        let directories = BaseDirectories(environment: environment)
        let candidates =
            environment["TASKRC"].map { [$0] } ?? [directories.home + "/.taskrc", directories.configHome + "/task/taskrc"]
        guard let rc = candidates.lazy.compactMap({ FileManager.default.contents(atPath: $0) }).first else { return [:] }
        return TaskwarriorDataDirectory.userAttributeTypes(inTaskrc: String(decoding: rc, as: UTF8.self))
    }

    /// Sends `text` in parts that fit todod's longest request line (escaped
    /// JSON can be several times its text), the last one carrying out the import.
    private static func send(_ text: String, format: InterchangeFormat, dryRun: Bool, to daemon: any DaemonCalls) async throws
        -> ImportTodos.Result
    {
        let partBytes = max(4096, (try await daemon.maximumLineBytes() ?? (1 << 20)) / 8)
        // Cut between characters' bytes (never inside one): todod joins the
        // parts byte for byte, so a cut anywhere else is harmless.
        let bytes = Array(text.utf8)
        var start = 0
        while true {
            var end = min(start + partBytes, bytes.count)
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            let isLast = end == bytes.count
            let part = String(decoding: bytes[start..<end], as: UTF8.self)
            let result = try await daemon.call(
                ImportTodos.self, .init(format: format, text: part, more: isLast ? nil : true, dryRun: dryRun ? true : nil))
            if isLast { return result }
            start = end
        }
    }

    private static let pastTense = ["add": "added", "update": "updated", "skip": "skipped"]

    static func report(_ result: ImportTodos.Result, format: InterchangeFormat, dryRun: Bool) -> String {
        var text = ""
        let title: (ImportTodos.Entry) -> String = { "\u{201C}\($0.title)\u{201D}" }
        for entry in result.items where dryRun || !entry.remarks.isEmpty {
            let id = entry.id.map { " \($0)" } ?? ""
            let verb = dryRun ? entry.action : Self.pastTense[entry.action] ?? entry.action
            text += "\(entry.source): \(verb)\(id) \(title(entry))\n"
            for remark in entry.remarks { text += "    \(remark)\n" }
        }
        // Entries with remarks come first: unless the list was cut among
        // them, an import (not a dry run) has printed all there is to read.
        let cutAmongRemarks = result.items.last.map { !$0.remarks.isEmpty } ?? false
        if result.unlisted > 0 && (dryRun || cutAmongRemarks) { text += "… and \(result.unlisted) more\n" }
        let (add, update) = dryRun ? ("to add", "to update") : ("added", "updated")
        let counts = "\(result.added) \(add), \(result.updated) \(update), \(result.unchanged) unchanged, \(result.skipped) skipped"
        if dryRun {
            text += "dry run, nothing changed: from \(format.displayName) \(counts)\n"
        } else {
            text += "imported from \(format.displayName): \(counts)\n"
        }
        return text
    }
}

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every item, or those a query matches, as Taskwarrior JSON, todo.txt or iCalendar, to stdout.",
        discussion: """
            Done items are included unless the query says otherwise (status:pending). Items keep their identity: \
            importing the export again, here or after a trip through Taskwarrior or a calendar, updates them.

            Examples: `todoctl export --format taskwarrior | task import`, `todoctl export --format todotxt \
            +home > todo.txt`, `todoctl export --format ical status:pending > todo.ics`.
            """)

    @ParentCommand var todoctl: Todoctl

    @Option(help: "taskwarrior, todotxt or ical.")
    var format: InterchangeFormat

    // `.allUnrecognized`: a query word like `-work` is not an option.
    @Argument(parsing: .allUnrecognized, help: "A query (as for ls); every item when left out.")
    var query: [String] = []

    func run() async throws {
        let (format, query) = (self.format, self.query.isEmpty ? nil : self.query.joined(separator: " "))
        try await withDaemon(todoctl.connection) { daemon in
            var cursor: String?
            repeat {
                let part = try await daemon.call(ExportTodos.self, .init(format: format, query: query, cursor: cursor))
                StandardStreams.write(part.text)
                cursor = part.cursor
            } while cursor != nil
        }
    }
}
