import FoundationEssentials

/// A Taskwarrior 2.x data directory (`~/.task`) read without Taskwarrior,
/// into the JSON `task export` prints for it: importing the directory is
/// then importing an export, and `TaskwarriorFormat.read` takes the text
/// as it is, so both ways in make the same items.
///
/// Why: Taskwarrior 3 keeps its tasks in a database and cannot read 2.x's
/// files. Someone whose system moved to 3 before they exported has a
/// `~/.task` and no program left that reads it.
///
/// The tasks are in `pending.data` and `completed.data`, one line each
/// (`TaskwarriorFF4Line`); `undo.data` and `backlog.data` hold history and
/// sync state, not tasks, and are not read. A line that cannot be read (a
/// format from before 2009, a hand edit gone wrong) refuses the whole
/// directory, naming the file and line, as any import refuses.
///
/// The text differs from what `task export` would print only in what needs
/// Taskwarrior's rc or clock: no `urgency`; user-defined attributes as
/// stored unless the rc's types are given (`userAttributeTypes(inTaskrc:)`:
/// a date UDA is then a date, a numeric one a number; a number or duration
/// as stored is read all the same for a field todod.conf declares, but a
/// date as stored, in seconds, is not a Taskwarrior date); and no new
/// occurrences of recurring tasks (`task export` first makes those that are
/// due), which the import folds into their template's one item anyway.
public struct TaskwarriorDataDirectory: Sendable {
    /// The files that hold tasks, in the order `task export` lists them.
    public static let taskFiles = ["pending.data", "completed.data"]

    /// One of `taskFiles` as read from the directory.
    public struct DataFile: Sendable {
        public var name: String
        public var bytes: [UInt8]

        public init(name: String, bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }
    }

    /// What `task export` prints for the tasks: a JSON array, a task a line.
    public let exportText: String
    /// Where each task of `exportText` comes from, in its order: "pending.data line 3".
    public let sources: [String]

    /// Reads `files` (those of `taskFiles` the directory has, in that order),
    /// with `userAttributeTypes` from the taskrc. Pending tasks are numbered
    /// as Taskwarrior numbers them right after a garbage collection; done
    /// and deleted ones have id 0.
    public init(files: [DataFile], userAttributeTypes: [String: String] = [:]) throws(ImportProblem) {
        var json = Array("[\n".utf8)
        json.reserveCapacity(files.reduce(0) { $0 + $1.bytes.count } * 5 / 4 + 16)
        var sources: [String] = []
        var nextID = 1
        for file in files {
            let isText = String(validating: file.bytes, as: UTF8.self) != nil
            for (index, line) in file.bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
                let location = "\(file.name) line \(index + 1)"
                if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) {
                    continue
                }
                guard isText || String(validating: line, as: UTF8.self) != nil else {
                    throw ImportProblem(location: location, message: "not UTF-8 text")
                }
                do {
                    let task = try TaskwarriorFF4Line(line)
                    let status = task.attributes["status"] ?? "pending"
                    let isNumbered = file.name == "pending.data" && status != "completed" && status != "deleted"
                    if !sources.isEmpty { json.append(contentsOf: ",\n".utf8) }
                    try task.exportJSON(id: isNumbered ? nextID : 0, userTypes: userAttributeTypes, into: &json)
                    if isNumbered { nextID += 1 }
                } catch {
                    throw ImportProblem(location: location, message: error.message)
                }
                sources.append(location)
            }
        }
        json.append(contentsOf: (sources.isEmpty ? "]\n" : "\n]\n").utf8)
        exportText = String(decoding: json, as: UTF8.self)
        self.sources = sources
    }

    /// The types a taskrc gives user-defined attributes (`uda.NAME.type=date`),
    /// by name. `include` lines are not followed.
    public static func userAttributeTypes(inTaskrc text: String) -> [String: String] {
        func trimmed(_ text: Substring) -> String {
            String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        }
        var types: [String: String] = [:]
        for line in textLines(text) {
            let setting = line.prefix { $0 != "#" }
            guard let equals = setting.firstIndex(of: "=") else { continue }
            let name = trimmed(setting[..<equals])
            guard name.hasPrefix("uda."), name.hasSuffix(".type"), name.count > 9 else { continue }
            types[String(name.dropFirst(4).dropLast(5))] = trimmed(setting[setting.index(after: equals)...])
        }
        return types
    }

    /// `text` — a problem or an entry's source from importing `exportText`,
    /// which names a task by its place in the array ("task 12: …", "task 12,
    /// annotation 1") — with the task named by the file and line it came
    /// from instead. Only a "task N" that starts the text or follows a space,
    /// and is the text's first "task ", is a place: the location comes
    /// before any words of the task's own.
    public func locating(_ text: String) -> String {
        guard let found = text.firstRange(of: "task "),
            found.lowerBound == text.startIndex || text[text.index(before: found.lowerBound)] == " "
        else { return text }
        let digits = text[found.upperBound...].prefix { $0.isASCII && $0.isNumber }
        let after = digits.endIndex
        guard let number = Int(digits), number >= 1, number <= sources.count,
            after == text.endIndex || text[after] == ":" || text[after] == ","
        else { return text }
        return text[..<found.lowerBound] + sources[number - 1] + text[after...]
    }
}
