import ArgumentParser
import FoundationEssentials
import Glibc
import TodoClient
import TodoInterchange
import TodoProtocol

extension InterchangeFormat: ExpressibleByArgument {}

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a Taskwarrior export, a todo.txt file or an iCalendar file, as one undo step.",
        discussion: """
            The whole file is imported or nothing is: a line or item todod cannot take is named with its problem. \
            Importing the same file again updates the items it brought (by Taskwarrior UUID, iCalendar UID or \
            todo.txt line) instead of adding them twice. `todoctl undo` takes the whole import back.

            --dry-run prints what each item would become, and what cannot be carried over, and changes nothing. \
            Without --format, the format follows the file's extension: .json Taskwarrior, .txt todo.txt, .ics iCalendar.

            Examples: `task export | todoctl import --format taskwarrior -`, `todoctl import ~/todo/todo.txt`, \
            `todoctl import --dry-run calendar.ics`.
            """)

    @ParentCommand var todoctl: Todoctl

    @Option(help: "taskwarrior, todotxt or ical.")
    var format: InterchangeFormat?

    @Flag(help: "Say what would be imported, change nothing.")
    var dryRun = false

    @Argument(help: "The file to import, or - for standard input.", completion: .file())
    var file: String

    /// Here, not in run: a usage error from validate is shown with
    /// import's own usage, not todoctl's.
    func validate() throws {
        guard format == nil, Self.format(ofFile: file) == nil else { return }
        if file == "-" {
            throw ValidationError("standard input has no file name to tell its format: give --format taskwarrior, todotxt or ical")
        }
        throw ValidationError(
            "\(file) does not end in .json, .txt or .ics: say which format it is in with --format taskwarrior, todotxt or ical")
    }

    func run() async throws {
        guard let format = format ?? Self.format(ofFile: file) else { throw ExitCode.validationFailure }
        let text = try Self.read(file, as: format)
        let dryRun = self.dryRun
        let result = try await withDaemon(todoctl.connection) { daemon in
            try await Self.send(text, format: format, dryRun: dryRun, to: daemon)
        }
        print(Self.report(result, format: format, dryRun: dryRun), terminator: "")
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
