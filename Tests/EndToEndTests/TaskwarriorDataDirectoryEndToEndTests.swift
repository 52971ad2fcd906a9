import Foundation
import TestSupport
import Testing

/// `todoctl import ~/.task`: a Taskwarrior 2.x data directory, as Debian's
/// `task` 2.6 writes it, imported without Taskwarrior by the real todoctl
/// into a real todod, makes the same list as importing what `task export`
/// prints for the same directory.
@Suite struct TaskwarriorDataDirectoryEndToEndTests {
    /// Every task of a JSON array, by uuid.
    private func tasks(_ json: String) throws -> [String: NSDictionary] {
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [NSDictionary])
        return Dictionary(array.map { ($0["uuid"] as? String ?? "", $0) }) { first, _ in first }
    }

    @Test(.enabled(if: ExternalPrograms.available(ExternalPrograms.task)))
    func aDataDirectoryImportsAsItsExportDoes() async throws {
        let taskwarrior = try TaskwarriorHome()
        // User-defined attributes of three types: todoctl reads their types from the same rc (TASKRC).
        let rc = try String(contentsOfFile: taskwarrior.file("taskrc"), encoding: .utf8)
        try (rc + "uda.estimate.type=numeric\nuda.reviewed.type=date\nuda.size.type=string\n")
            .write(toFile: taskwarrior.file("taskrc"), atomically: true, encoding: .utf8)
        try await taskwarrior.task(
            "add", #"Buy [milk] "full" & ½ / 5"#, "+shop", "+home", "project:home.errands", "priority:H", "due:2030-01-15",
            "estimate:3.5", "reviewed:2029-12-01", "size:M")
        try await taskwarrior.task("+LATEST", "annotate", "semi-skimmed ]")
        try await taskwarrior.task("+LATEST", "annotate", "from the corner shop")
        try await taskwarrior.task("add", "Pay rent", "due:2030-02-01", "recur:monthly", "until:2031-01-01", "project:money")
        try await taskwarrior.task("add", "Write report", "+work", "wait:2030-01-05", "due:2030-01-10T14:30", "scheduled:2030-01-03")
        try await taskwarrior.task("add", "Plan trip", "+travel", "depends:1")
        try await taskwarrior.task("add", "Filed taxes", "priority:M")
        try await taskwarrior.task("+LATEST", "done")
        try await taskwarrior.task("add", "gone")
        try await taskwarrior.task("+LATEST", "delete")
        // What the command line cannot say: backslashes and quotes, escaped in the file.
        let imported = #"[{"uuid":"11111111-2222-4333-8444-555555555555","description":"back\\slash & co","status":"pending","entry":"20261101T080000Z","annotations":[{"entry":"20261102T080000Z","description":"say \"hi\" \\n"}]}]"#
        try imported.write(toFile: taskwarrior.file("import.json"), atomically: true, encoding: .utf8)
        try await taskwarrior.task("import", taskwarrior.file("import.json"))
        // A report first: Taskwarrior makes the rent's occurrence and moves
        // the done and deleted tasks to completed.data, so that the export
        // after it and the files are of the same moment.
        try await taskwarrior.task("list")
        let export = try await taskwarrior.task("export")
        try export.write(toFile: taskwarrior.file("export.json"), atomically: true, encoding: .utf8)
        let data = taskwarrior.file("data")
        let pending = try String(contentsOfFile: data + "/pending.data", encoding: .utf8)
        #expect(pending.contains("tags_home:\"x\"") && pending.contains("dep_") && pending.contains("imask:"), "not 2.6's data: \(pending)")

        let fromExport = try DaemonProcess()
        try await fromExport.start()
        let fromDirectory = try DaemonProcess()
        try await fromDirectory.start()
        let environment = ["TASKRC": taskwarrior.file("taskrc")]

        let dryRun = try await todoctl("import", "--dry-run", data, socket: fromDirectory.socket, environment: environment)
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        let lines = dryRun.stdout.split(separator: "\n")
        let milkLine = lines.first { $0.contains("“Buy [milk] \"full\" & ½ / 5”") }
        #expect(milkLine?.hasPrefix("pending.data line 1: add") == true, "\(dryRun.stdout)")
        let goneLine = lines.first { $0.contains("skip “gone”") }
        #expect(goneLine?.hasPrefix("completed.data line ") == true, "\(dryRun.stdout)")

        let viaExport = try await todoctl("import", taskwarrior.file("export.json"), socket: fromExport.socket)
        let viaDirectory = try await todoctl("import", data, socket: fromDirectory.socket, environment: environment)
        #expect(viaExport.status == 0 && viaDirectory.status == 0, "\(viaExport.stderr)\(viaDirectory.stderr)")
        #expect(viaDirectory.stdout.hasSuffix("imported from Taskwarrior: 6 added, 0 updated, 0 unchanged, 1 skipped\n"), "\(viaDirectory.stdout)")
        #expect(viaDirectory.stdout.replacingOccurrences(of: #"(pending|completed)\.data line \d+"#, with: "SOURCE", options: .regularExpression)
            == viaExport.stdout.replacingOccurrences(of: #"task \d+"#, with: "SOURCE", options: .regularExpression))

        // The same list, field for field (todod's own ids, dates, notes and all it keeps).
        let ours = try tasks(try await todoctl("export", "--format", "taskwarrior", socket: fromDirectory.socket).stdout)
        let theirs = try tasks(try await todoctl("export", "--format", "taskwarrior", socket: fromExport.socket).stdout)
        #expect(ours.count == 6)
        #expect(ours == theirs)
        let listed = try await todoctl("ls", "status:all", socket: fromDirectory.socket).stdout
        #expect(listed == (try await todoctl("ls", "status:all", socket: fromExport.socket).stdout))
        let milk = try #require(ours.values.first { $0["description"] as? String == #"Buy [milk] "full" & ½ / 5"# })
        #expect(milk["tags"] as? [String] == ["home", "shop"])
        #expect((milk["annotations"] as? [[String: String]])?.map { $0["description"] } == ["semi-skimmed ]", "from the corner shop"])
        let backslash = try #require(ours["11111111-2222-4333-8444-555555555555"])
        #expect(backslash["description"] as? String == "back\\slash & co")
        #expect((backslash["annotations"] as? [[String: String]])?.first?["description"] == "say \"hi\" \\n")

        // Imported again, the directory changes nothing, as the export would not.
        let again = try await todoctl("import", data, socket: fromDirectory.socket, environment: environment)
        #expect(again.stdout.hasSuffix("0 added, 0 updated, 6 unchanged, 1 skipped\n"), "\(again.stdout)\(again.stderr)")
        let afterExport = try await todoctl("import", taskwarrior.file("export.json"), socket: fromDirectory.socket)
        #expect(afterExport.stdout.hasSuffix("0 added, 0 updated, 6 unchanged, 1 skipped\n"), "\(afterExport.stdout)")
    }

    @Test func whatCannotBeReadIsRefusedWithFileAndLine() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let socket = daemon.socket
        let folder = try TemporaryDirectory("twdata")
        let directory = folder.file("home/.task")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)

        // Neither pending.data nor completed.data: like a missing file (66).
        let empty = try await todoctl("import", directory, socket: socket)
        #expect(empty.status == 66, "\(empty)")
        #expect(empty.stderr.contains("holds neither pending.data nor completed.data"), "\(empty.stderr)")
        let missing = try await todoctl("import", folder.file("elsewhere/.task"), socket: socket)
        #expect(missing.status == 66 && missing.stderr.contains("no such directory"), "\(missing)")

        // A line todoctl cannot read (65), and a task todod refuses: both named by file and line.
        let fine = #"[description:"fine" entry:"1700000000" status:"pending" uuid:"0f3a1b2c-0000-4000-8000-000000000001"]"#
        try (fine + "\n\nb83fc5e4 - [tag] from before 2009\n").write(toFile: directory + "/pending.data", atomically: true, encoding: .utf8)
        let old = try await todoctl("import", directory, socket: socket)
        #expect(old.status == 65, "\(old)")
        #expect(old.stderr.hasPrefix("todoctl: Nothing was imported: pending.data line 3: not a Taskwarrior 2.x task line"), "\(old.stderr)")
        let tab = #"[description:"a\ttab" status:"completed" uuid:"0f3a1b2c-0000-4000-8000-000000000002"]"#
        try (fine + "\n").write(toFile: directory + "/pending.data", atomically: true, encoding: .utf8)
        try (fine.replacingOccurrences(of: "0001", with: "0003") + "\n" + tab + "\n").write(
            toFile: directory + "/completed.data", atomically: true, encoding: .utf8)
        let refused = try await todoctl("import", directory, socket: socket)
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.hasPrefix("todoctl: Nothing was imported: completed.data line 2: The title contains"), "\(refused.stderr)")
        #expect(try await todoctl("export", "--format", "todotxt", socket: socket).stdout == "")

        // Only as Taskwarrior data; one of its files is not the directory.
        let asTodoTxt = try await todoctl("import", "--format", "todotxt", directory, socket: socket)
        #expect(asTodoTxt.status == 64 && asTodoTxt.stderr.contains("is a Taskwarrior 2.x data directory"), "\(asTodoTxt)")
        let oneFile = try await todoctl("import", directory + "/pending.data", socket: socket)
        #expect(oneFile.status == 64 && oneFile.stderr.contains("import the whole directory, todoctl import \(directory)"), "\(oneFile)")

        try (fine + "\n").write(toFile: directory + "/pending.data", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: directory + "/completed.data")
        let imported = try await todoctl("import", "--format", "taskwarrior", directory + "/", socket: socket)
        #expect(imported.stdout == "imported from Taskwarrior: 1 added, 0 updated, 0 unchanged, 0 skipped\n", "\(imported)")
    }
}
