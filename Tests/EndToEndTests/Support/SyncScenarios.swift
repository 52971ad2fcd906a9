import CalDAVServerSupport
import Foundation
import TestSupport

/// What the sync scenarios (Tests/EndToEndTests/Sync) need beyond
/// `SyncedList`: the list's to-dos by title, the server's as a phone reads
/// them, a phone's edit, the sync's state file, and a `todod-sync now`
/// left running in the background.
extension SyncedList {
    /// One to-do as the list exports it or the server holds it.
    struct Todo: Equatable, CustomStringConvertible {
        var uid: String
        var summary: String
        var done: Bool
        /// The due date as written (`20261201`, `20261201T090000`), nil without.
        var due: String?
        /// The whole VTODO, unfolded, for checks of single lines.
        var text: String

        var description: String { "\(summary) [\(uid)] done=\(done) due=\(due ?? "-")" }
    }

    /// The list's to-dos, from `todoctl export --format ical`.
    func listTodos() async throws -> [Todo] {
        Self.todos(inICalendar: try await export())
    }

    /// The one to-do of the list titled `summary`; fails unless there is one.
    func listTodo(_ summary: String) async throws -> Todo {
        let found = try await listTodos().filter { $0.summary == summary }
        guard found.count == 1 else { throw TestFailure("the list has \(found.count) to-dos titled \(summary): \(found)") }
        return found[0]
    }

    /// The server's to-dos, completed ones included, as python3-caldav reads them.
    func serverTodos() throws -> [Todo] {
        let printed = try server.phone(
            """
            import json
            print(json.dumps([t.data for t in calendar.todos(include_completed=True)]))
            """)
        guard let line = printed.split(separator: "\n").last,
            let resources = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String]
        else { throw TestFailure("the phone printed \(printed)") }
        return resources.flatMap(Self.todos(inICalendar:))
    }

    /// The PRODID the phone writes: conflict notes call it "Phone Tasks".
    static let phoneProductID = "-//Example//Phone Tasks//EN"

    /// Edits the to-do titled `summary` on the server as a phone does:
    /// `python` runs with `todo` (the icalendar VTODO) and `datetime`
    /// defined, LAST-MODIFIED and DTSTAMP are stamped `lastModified` (a
    /// python expression, the phone's clock by default), the calendar's
    /// PRODID becomes the phone's, and it is saved.
    func phoneEdit(_ summary: String, lastModified: String = "now", _ python: String) throws {
        let body = python.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }.joined(separator: "\n")
        _ = try server.phone(
            """
            import datetime
            now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
            found = 0
            for item in calendar.todos(include_completed=True):
                todo = item.icalendar_component
                if str(todo.get('summary')) == \(Self.pythonString(summary)):
                    found += 1
            \(body)
                    for name in ('last-modified', 'dtstamp'):
                        if name in todo: del todo[name]
                        todo.add(name, \(lastModified))
                    item.icalendar_instance.pop('prodid', None)
                    item.icalendar_instance.add('prodid', \(Self.pythonString(Self.phoneProductID)))
                    item.save()
            if found != 1: sys.exit('the server has %d to-dos titled %r' % (found, \(Self.pythonString(summary))))
            """)
    }

    /// Deletes the to-do titled `summary` on the server, as a phone does.
    func phoneDelete(_ summary: String) throws {
        _ = try server.phone(
            """
            found = [t for t in calendar.todos(include_completed=True) if str(t.icalendar_component.get('summary')) == \(Self.pythonString(summary))]
            if len(found) != 1: sys.exit('the server has %d to-dos titled %r' % (len(found), \(Self.pythonString(summary))))
            found[0].delete()
            """)
    }

    /// Runs `todoctl ARGUMENTS` and fails unless it succeeds.
    @discardableResult
    func todo(_ arguments: String...) async throws -> String {
        try await todo(arguments)
    }

    @discardableResult
    func todo(_ arguments: [String]) async throws -> String {
        let result = try await EndToEndTests.todoctl(arguments: arguments, socket: daemon.socket)
        guard result.status == 0 else {
            throw TestFailure("todoctl \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stdout) \(result.stderr)")
        }
        return result.stdout
    }

    /// The id `todoctl ls` gives the item titled `title` (done or not, as
    /// `done` says); fails unless there is exactly one.
    func id(of title: String, done: Bool = false) async throws -> String {
        let listed = try await todo("ls")
        var ids: [String] = []
        for line in listed.split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 1)
            guard words.count == 2, Int(words[0]) != nil else { continue }
            let rest = words[1].drop { $0 == " " }
            let box = done ? "[x] " : "[ ] "
            guard rest.hasPrefix(box) else { continue }
            let shown = rest.dropFirst(box.count)
            if shown == title || shown.hasPrefix(title + "  ") || shown.hasPrefix(title + " (") { ids.append(String(words[0])) }
        }
        guard ids.count == 1 else { throw TestFailure("todoctl ls shows \(ids.count) \(done ? "done" : "open") items titled \(title):\n\(listed)") }
        return ids[0]
    }

    /// `todod-sync now`, expecting it to fail: what it said.
    func syncNowFailing() async throws -> String {
        let result = try await sync(["now"])
        guard result.status != 0 else { throw TestFailure("todod-sync now succeeded; expected it to fail: \(result.stdout)") }
        return result.stdout + result.stderr
    }

    /// `todod-sync ARGUMENTS` (`now` by default) started and left running,
    /// for a test to break something while it syncs. Its output goes to `output`.
    func startSync(_ arguments: [String] = ["now"], output: OutputCollector) throws -> ChildProcess {
        try ChildProcess(
            Binaries.todoSync, arguments + ["--socket", daemon.socket],
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, stdout: output, stderr: output)
    }

    /// The sync's state, `$XDG_STATE_HOME/todod-sync/sync.sqlite`, or in
    /// the folder of this todod's instance there (a socket not the default).
    var stateFile: String { syncFile("sync.sqlite", under: "state/todod-sync") }
    /// The password the sync logs in with, `$XDG_CONFIG_HOME/todod/sync.password`, or the instance's.
    var passwordFile: String { syncFile("sync.password", under: "config/todod") }

    /// The one file `name` under the home's `folder` (this list's sync is
    /// the home's only one); where the default instance's would be if none.
    private func syncFile(_ name: String, under folder: String) -> String {
        let root = home.appendingPathComponent(folder)
        let found = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.first { ($0 as NSString).lastPathComponent == name }
        return root.appendingPathComponent(found ?? name).path
    }

    /// Runs one SQL statement on the sync's state file (python's sqlite3:
    /// no sqlite3 program needed), while no sync runs.
    func changeState(_ sql: String) async throws {
        _ = try await output(
            of: ExternalPrograms.python,
            ["-c", "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nc.execute(sys.argv[2])\nc.commit()", stateFile, sql])
    }

    /// The to-dos of an iCalendar text, VTODOs without RECURRENCE-ID only.
    static func todos(inICalendar text: String) -> [Todo] {
        var todos: [Todo] = []
        var current: [String]?
        var depth = 0
        var unfolded: [String] = []
        for line in text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(" ") || line.hasPrefix("\t"), !unfolded.isEmpty {
                unfolded[unfolded.count - 1] += line.dropFirst()
            } else {
                unfolded.append(String(line))
            }
        }
        for line in unfolded {
            if line.uppercased() == "BEGIN:VTODO", depth == 1 { current = [] }
            if line.uppercased().hasPrefix("BEGIN:") { depth += 1 }
            if line.uppercased().hasPrefix("END:") { depth -= 1 }
            if current != nil, depth >= 2 || line.uppercased() == "END:VTODO" { current!.append(line) }
            if line.uppercased() == "END:VTODO", depth == 1, let lines = current {
                current = nil
                // Only the VTODO's own properties, not its VALARM's.
                var own: [String] = []
                var nested = 0
                for line in lines.dropFirst().dropLast() {
                    if line.uppercased().hasPrefix("BEGIN:") { nested += 1 }
                    if nested == 0 { own.append(line) }
                    if line.uppercased().hasPrefix("END:") { nested -= 1 }
                }
                func value(_ name: String) -> String? {
                    own.first { $0.uppercased().hasPrefix(name + ":") || $0.uppercased().hasPrefix(name + ";") }
                        .map { String($0[$0.index(after: $0.firstIndex(of: ":")!)...]) }
                }
                if own.contains(where: { $0.uppercased().hasPrefix("RECURRENCE-ID") }) { continue }
                let summary = (value("SUMMARY") ?? "").replacingOccurrences(of: "\\,", with: ",").replacingOccurrences(of: "\\;", with: ";")
                    .replacingOccurrences(of: "\\\\", with: "\\")
                let done = value("STATUS")?.uppercased() == "COMPLETED" || value("COMPLETED") != nil
                todos.append(Todo(uid: value("UID") ?? "", summary: summary, done: done, due: value("DUE"), text: lines.joined(separator: "\n")))
            }
        }
        return todos
    }

    /// `text` as a python string literal.
    static func pythonString(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
            .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n") + "'"
    }
}

extension CalDAVTestServer {
    /// How many PUTs the server's log shows (Radicale and Xandikos both log each).
    var putsLogged: Int {
        log.split(separator: "\n").count { line in
            kind == .radicale ? line.contains("PUT response status") : line.contains("\"PUT ")
        }
    }
}
