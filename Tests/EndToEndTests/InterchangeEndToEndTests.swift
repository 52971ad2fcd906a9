import Foundation
import TestSupport
import Testing

/// Import and export against what real programs write and read: Debian's
/// Taskwarrior 2.6, todo.txt's `todo.sh`, and python3's `icalendar`.
@Suite struct InterchangeEndToEndTests {
    /// Every task in a Taskwarrior (or todod's taskwarrior export), by description.
    private func tasks(_ json: String) throws -> [String: [String: Any]] {
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        return Dictionary(array.map { ($0["description"] as? String ?? "", $0) }) { first, _ in first }
    }

    @Test(.enabled(if: ExternalPrograms.available(ExternalPrograms.task)))
    func taskwarriorExportsImportAndGoBack() async throws {
        let taskwarrior = try TaskwarriorHome()
        try await taskwarrior.task("add", "Buy milk", "+shop", "project:home.errands", "priority:H", "due:2030-01-15")
        try await taskwarrior.task("+LATEST", "annotate", "semi-skimmed")
        try await taskwarrior.task("add", "Pay rent", "due:2030-02-01", "recur:monthly", "project:money")
        try await taskwarrior.task("add", "Write report", "+work", "wait:2030-01-05", "due:2030-01-10T14:30")
        try await taskwarrior.task("add", "Filed taxes", "priority:M")
        try await taskwarrior.task("/Filed taxes/", "done")
        try await taskwarrior.task("add", "gone")
        try await taskwarrior.task("/gone/", "delete")
        let original = try await taskwarrior.task("export")
        try original.write(toFile: taskwarrior.file("export.json"), atomically: true, encoding: .utf8)

        let daemon = try DaemonProcess()
        try await daemon.start()
        let socket = daemon.socket
        let dryRun = try await todoctl("import", "--dry-run", taskwarrior.file("export.json"), socket: socket)
        #expect(dryRun.stdout.contains("dry run, nothing changed: from Taskwarrior 4 to add"), "\(dryRun.stdout)\(dryRun.stderr)")
        #expect(dryRun.stdout.contains("skip “gone”\n    deleted in Taskwarrior"), "\(dryRun.stdout)")
        // In the file's order (task 1, task 2, …), the skipped one among them, not first.
        let sources = dryRun.stdout.split(separator: "\n").compactMap { line in
            line.hasPrefix("task ") ? Int(line.dropFirst(5).prefix { $0.isNumber }) : nil
        }
        #expect(sources.count == 5 && sources == sources.sorted(), "\(dryRun.stdout)")
        #expect(try await todoctl("export", "--format", "taskwarrior", socket: socket).stdout == "[\n]\n")

        let imported = try await todoctl("import", "--format", "taskwarrior", taskwarrior.file("export.json"), socket: socket)
        #expect(imported.stdout.hasSuffix("imported from Taskwarrior: 4 added, 0 updated, 0 unchanged, 1 skipped\n"), "\(imported.stdout)\(imported.stderr)")
        let ours = try tasks(try await todoctl("export", "--format", "taskwarrior", socket: socket).stdout)
        let theirs = try tasks(original)
        #expect(Set(ours.keys) == ["Buy milk", "Pay rent", "Write report", "Filed taxes"])
        for (description, task) in ours {
            let source = try #require(theirs[description])
            for field in ["uuid", "due", "wait", "project", "priority", "entry"] {
                #expect(task[field] as? String == source[field] as? String, "\(description): \(field)")
            }
            #expect(task["tags"] as? [String] == source["tags"] as? [String], "\(description): tags")
        }
        #expect((ours["Buy milk"]?["annotations"] as? [[String: Any]])?.first?["description"] as? String == "semi-skimmed")
        #expect(ours["Pay rent"]?["status"] as? String == "recurring")
        #expect(ours["Pay rent"]?["recur"] as? String == "monthly")
        #expect(ours["Filed taxes"]?["status"] as? String == "completed")
        #expect(ours["Filed taxes"]?["end"] as? String == theirs["Filed taxes"]?["end"] as? String)

        // The same file again changes nothing; undo takes the import back whole.
        let again = try await todoctl("import", taskwarrior.file("export.json"), socket: socket)
        #expect(again.stdout.hasSuffix("0 added, 0 updated, 4 unchanged, 1 skipped\n"), "\(again.stdout)")

        // todod → Taskwarrior: a fresh Taskwarrior imports our export and has the same tasks.
        let back = try TaskwarriorHome()
        let ourExport = try await todoctl("export", "--format", "taskwarrior", socket: socket).stdout
        try ourExport.write(toFile: back.file("ours.json"), atomically: true, encoding: .utf8)
        try await back.task("import", back.file("ours.json"))
        let reimported = try tasks(try await back.task("export"))
        for (description, task) in ours {
            let there = try #require(reimported[description], "\(description) is not in Taskwarrior")
            for field in ["uuid", "due", "project", "priority", "status"] {
                #expect(there[field] as? String == task[field] as? String, "\(description): \(field)")
            }
        }
        #expect(try await todoctl("undo", socket: socket).stdout.hasPrefix("undid: import from Taskwarrior: add 4 items"))
        #expect(try await todoctl("export", "--format", "taskwarrior", socket: socket).stdout == "[\n]\n")
    }

    @Test func aBadFileImportsNothingAndSaysWhere() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let file = daemon.directory.appendingPathComponent("bad.json").path
        try #"[{"uuid":"a","description":"fine"},{"uuid":"b","description":"bad","due":"soon"}]"#.write(
            toFile: file, atomically: true, encoding: .utf8)
        let refused = try await todoctl("import", file, socket: daemon.socket)
        #expect(refused.status == 65)
        #expect(refused.stderr == "todoctl: Nothing was imported: task 2: due \"soon\" is not a Taskwarrior date (20240115T093000Z).\n", "\(refused.stderr)")
        #expect(try await todoctl("export", "--format", "todotxt", socket: daemon.socket).stdout == "")

        // Standard input, and a format no extension can tell.
        let piped = try await todoctl(
            arguments: ["import", "--format", "todotxt", "-"], socket: daemon.socket, input: "(A) from a pipe @stdin\n")
        #expect(piped.stdout == "imported from todo.txt: 1 added, 0 updated, 0 unchanged, 0 skipped\n", "\(piped.stderr)")
        #expect(try await todoctl("export", "--format", "todotxt", socket: daemon.socket).stdout.hasSuffix(" from a pipe @stdin\n"))
        let notes = daemon.directory.appendingPathComponent("notes.md")
        try Data("- buy milk\n".utf8).write(to: notes)
        let unknown = try await todoctl("import", notes.path, socket: daemon.socket)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("say which format"), "\(unknown.stderr)")
    }

    @Test func aLongFileIsSentInPartsAndImportedWhole() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let file = daemon.directory.appendingPathComponent("long.txt").path
        let lines = (1...4000).map { "(B) 2026-11-20 task number \($0) with a fairly long title to fill the line +p\($0 % 7) @ctx" }
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try await todoctl("import", file, socket: daemon.socket)
        #expect(imported.stdout == "imported from todo.txt: 4000 added, 0 updated, 0 unchanged, 0 skipped\n", "\(imported.stderr)")
        let exported = try await todoctl("export", "--format", "todotxt", socket: daemon.socket).stdout
        #expect(exported == lines.joined(separator: "\n") + "\n")
    }

    @Test(.enabled(if: ExternalPrograms.available(ExternalPrograms.todoTxt)))
    func todoTxtFromTodoShAndBack() async throws {
        let home = try TodoTxtHome()
        try await home.todo("-t", "add", "Call Mom +family @phone due:2030-01-15")
        try await home.todo("-t", "add", "file taxes +money")
        try await home.todo("-t", "add", "water plants @home rec:+1w")
        try await home.todo("pri", "1", "A")
        try await home.todo("do", "2")

        let daemon = try DaemonProcess()
        try await daemon.start()
        let socket = daemon.socket
        let imported = try await todoctl("import", home.file("todo.txt"), socket: socket)
        #expect(imported.stdout == "imported from todo.txt: 3 added, 0 updated, 0 unchanged, 0 skipped\n", "\(imported.stderr)")
        let shown = try await todoctl("ls", "status:all", socket: socket).stdout
        #expect(shown.contains("[ ] Call Mom  (due 2030-01-15)  H · family · +phone"), "\(shown)")
        #expect(shown.contains("[x] file taxes  money"), "\(shown)")
        #expect(shown.contains("water plants") && shown.contains("↻ weekly"), "\(shown)")

        // Marked done in todo.sh, the line is known again: updated, not added.
        try await home.todo("do", "1")
        let updated = try await todoctl("import", home.file("todo.txt"), socket: socket)
        #expect(updated.stdout == "imported from todo.txt: 0 added, 1 updated, 2 unchanged, 0 skipped\n", "\(updated.stdout)")

        // todo.sh reads what todod writes.
        let other = try TodoTxtHome()
        let exported = try await todoctl("export", "--format", "todotxt", socket: socket).stdout
        try exported.write(toFile: other.file("todo.txt"), atomically: true, encoding: .utf8)
        let listed = try await other.todo("-p", "ls")
        #expect(listed.contains("Call Mom +family @phone due:2030-01-15"), "\(listed)")
        #expect(listed.contains("water plants @home due:"), "\(listed)")
        #expect(listed.hasSuffix("TODO: 3 of 3 tasks shown"), "\(listed)")
    }

    @Test(.enabled(if: ExternalPrograms.pythonHasICalendar))
    func iCalendarThroughPythonsICalendar() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let socket = daemon.socket
        #expect(try await todoctl("add", "Renew passport, visa; photos", "+travel", "+admin", "pri:H", "due:2030-01-15", socket: socket).status == 0)
        #expect(try await todoctl("add", "Standup", "recur:weekdays", "due:2030-01-14", socket: socket).status == 0)
        #expect(try await todoctl("note", "1", "bring the old one", socket: socket).status == 0)
        let calendar = daemon.directory.appendingPathComponent("ours.ics").path
        try await todoctl("export", "--format", "ical", socket: socket).stdout.write(toFile: calendar, atomically: true, encoding: .utf8)

        let read = try await output(
            of: ExternalPrograms.python,
            [
                "-c",
                """
                import icalendar, json, sys
                cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
                out = []
                for todo in cal.walk('VTODO'):
                    out.append({'summary': str(todo['SUMMARY']), 'status': str(todo['STATUS']),
                                'due': todo.decoded('DUE').isoformat(), 'priority': int(todo.get('PRIORITY', 0)),
                                'categories': [str(c) for c in todo['CATEGORIES'].cats] if 'CATEGORIES' in todo else [],
                                'rrule': todo['RRULE'].to_ical().decode() if 'RRULE' in todo else None,
                                'description': str(todo.get('DESCRIPTION', ''))})
                print(json.dumps(out))
                """,
                calendar,
            ])
        let todos = try #require(try JSONSerialization.jsonObject(with: Data(read.utf8)) as? [[String: Any]])
        #expect(todos.map { $0["summary"] as? String } == ["Renew passport, visa; photos", "Standup"])
        #expect(todos[0]["due"] as? String == "2030-01-15")
        #expect(todos[0]["priority"] as? Int == 1)
        #expect(todos[0]["categories"] as? [String] == ["admin", "travel"])
        #expect(todos[0]["description"] as? String == "bring the old one")
        #expect(todos[1]["rrule"] as? String == "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")

        // A calendar python's icalendar writes, imported.
        let theirs = daemon.directory.appendingPathComponent("theirs.ics").path
        _ = try await output(
            of: ExternalPrograms.python,
            [
                "-c",
                """
                import icalendar, sys, datetime, pytz
                cal = icalendar.Calendar(); cal.add('prodid', '-//test//EN'); cal.add('version', '2.0')
                todo = icalendar.Todo(); todo.add('uid', 'dentist@example.com'); todo.add('summary', 'Dentist, 2nd floor')
                todo.add('due', pytz.timezone('America/New_York').localize(datetime.datetime(2030, 1, 15, 9, 0)))
                todo.add('priority', 7); todo.add('categories', ['health', 'calls']); todo.add('rrule', {'freq': 'monthly', 'interval': 6})
                todo.add('status', 'NEEDS-ACTION')
                cal.add_component(todo)
                done = icalendar.Todo(); done.add('uid', 'done@example.com'); done.add('summary', 'Old thing')
                done.add('status', 'COMPLETED'); done.add('completed', datetime.datetime(2029, 12, 1, 10, 0, tzinfo=pytz.utc))
                cal.add_component(done)
                open(sys.argv[1], 'wb').write(cal.to_ical())
                """,
                theirs,
            ])
        let imported = try await todoctl("import", theirs, socket: socket)
        #expect(imported.stdout == "imported from iCalendar: 2 added, 0 updated, 0 unchanged, 0 skipped\n", "\(imported.stdout)\(imported.stderr)")
        let ours = try tasks(try await todoctl("export", "--format", "taskwarrior", "Dentist", socket: socket).stdout)
        let dentist = try #require(ours["Dentist, 2nd floor"])
        #expect(dentist["due"] as? String == "20300115T140000Z")
        #expect(dentist["priority"] as? String == "L")
        #expect(dentist["tags"] as? [String] == ["calls", "health"])
        #expect(dentist["recur"] as? String == "6mo")
        let again = try await todoctl("import", theirs, socket: socket)
        #expect(again.stdout.hasSuffix("0 added, 0 updated, 2 unchanged, 0 skipped\n"), "\(again.stdout)")
    }
}

/// A todo.txt directory with a `todo.sh` config of its own.
struct TodoTxtHome {
    /// Removed, with the lists, when the test that made it ends.
    private let folder: TemporaryDirectory
    var directory: URL { folder.url }

    init() throws {
        folder = try TemporaryDirectory("todotxt")
        let config = """
            export TODO_DIR=\(directory.path)
            export TODO_FILE="$TODO_DIR/todo.txt"
            export DONE_FILE="$TODO_DIR/done.txt"
            export REPORT_FILE="$TODO_DIR/report.txt"
            export TODOTXT_AUTO_ARCHIVE=0

            """
        try config.write(to: directory.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        try "".write(to: directory.appendingPathComponent("todo.txt"), atomically: true, encoding: .utf8)
    }

    @discardableResult
    func todo(_ arguments: String...) async throws -> String {
        try await output(of: ExternalPrograms.todoTxt, ["-d", file("config")] + arguments)
    }

    func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
}
