import Foundation
import TestSupport
import Testing

/// Links between tasks through Debian's Taskwarrior 2.6 and back, with the
/// real todoctl and todod: `depends` (and the `parenttask` attribute todod
/// writes a subtask's parent as) names tasks by UUID; todod links the items
/// they became, and writes the same UUIDs back. A dependency on a task the
/// file does not have is kept as it came, and said.
@Suite struct TaskwarriorLinksEndToEndTests {
    /// Every task of a JSON array, by uuid.
    private func tasks(_ json: String) throws -> [String: [String: Any]] {
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        return Dictionary(array.map { ($0["uuid"] as? String ?? "", $0) }) { first, _ in first }
    }

    private func uuids(_ value: String) -> Set<String> {
        Set(value.split(separator: ",").map(String.init).filter { !$0.isEmpty })
    }

    static let parentAttribute = "uda.parenttask.type=string\nuda.parenttask.label=Subtask of\n"

    @Test(.enabled(if: ExternalPrograms.available(ExternalPrograms.task)))
    func dependenciesGoThroughTododAndBackToTaskwarrior() async throws {
        let original = try TaskwarriorHome()
        try NothingDroppedEndToEndTests.append(Self.parentAttribute, to: original.file("taskrc"))
        try await original.task("add", "Plan the trip")
        try await original.task("add", "Book the flights")
        try await original.task("add", "Renew the passport")
        try await original.task("1", "modify", "depends:2,3")
        try await original.task("3", "modify", "depends:2")
        let trip = try await original.task("_get", "1.uuid")
        try await original.task("2", "modify", "parenttask:\(trip)")
        // A dependency on a task this Taskwarrior no longer has (as after
        // a partial import elsewhere): kept by Taskwarrior, and by todod.
        let missing = "dddddddd-0000-4000-8000-000000000004"
        let stray = #"[{"uuid":"eeeeeeee-0000-4000-8000-000000000005","description":"Pack","status":"pending","entry":"20261101T080000Z","depends":["\#(missing)"]}]"#
        try stray.write(toFile: original.file("stray.json"), atomically: true, encoding: .utf8)
        try await original.task("import", original.file("stray.json"))
        let exported = try await original.task("export")
        try exported.write(toFile: original.file("export.json"), atomically: true, encoding: .utf8)
        let theirs = try tasks(exported)
        #expect(theirs.count == 4)
        #expect(theirs.values.contains { ($0["depends"] as? [String])?.count == 2 }, "not 2.6's depends: \(exported)")

        let daemon = try DaemonProcess()
        try await daemon.start()
        let imported = try await todoctl("import", original.file("export.json"), socket: daemon.socket)
        #expect(imported.status == 0, "\(imported)")
        // Only the task whose dependency names no task has anything said.
        #expect(
            imported.stdout.hasSuffix(
                "“Pack”\n    kept as they came for Taskwarrior, unused by todod: depends\n"
                    + "    depends \(missing) kept as it came for Taskwarrior: no item of the file or the list has it\n"
                    + "imported from Taskwarrior: 4 added, 0 updated, 0 unchanged, 0 skipped\n"), "\(imported.stdout)")
        #expect(imported.stdout.split(separator: "\n").count == 4, "\(imported.stdout)")
        // Links, not attributes kept for Taskwarrior: a calendar export says them too.
        let calendar = try await todoctl("export", "--format", "ical", socket: daemon.socket).stdout
        #expect(calendar.components(separatedBy: "\r\n").filter { $0.hasPrefix("RELATED-TO") }.sorted() == [
            "RELATED-TO;RELTYPE=DEPENDS-ON:\(try #require(theirs.first { $0.value["description"] as? String == "Book the flights" }?.key))",
            "RELATED-TO;RELTYPE=DEPENDS-ON:\(try #require(theirs.first { $0.value["description"] as? String == "Book the flights" }?.key))",
            "RELATED-TO;RELTYPE=DEPENDS-ON:\(try #require(theirs.first { $0.value["description"] as? String == "Renew the passport" }?.key))",
            "RELATED-TO;RELTYPE=PARENT:\(trip)",
        ].sorted(), "\(calendar)")
        // Importing the same file again changes nothing.
        let again = try await todoctl("import", original.file("export.json"), socket: daemon.socket)
        #expect(again.stdout.hasSuffix("0 added, 0 updated, 4 unchanged, 0 skipped\n"), "\(again.stdout)")

        // Kept across a restart, then into a Taskwarrior of its own.
        _ = try await daemon.terminate()
        try await daemon.start()
        let ours = try await todoctl("export", "--format", "taskwarrior", socket: daemon.socket).stdout
        let back = try TaskwarriorHome()
        try NothingDroppedEndToEndTests.append(Self.parentAttribute, to: back.file("taskrc"))
        try ours.write(toFile: back.file("ours.json"), atomically: true, encoding: .utf8)
        try await back.task("import", back.file("ours.json"))
        let returned = try tasks(try await back.task("export"))
        #expect(Set(returned.keys) == Set(theirs.keys))
        for (uuid, task) in theirs {
            let there = try #require(returned[uuid])
            #expect(Set(there["depends"] as? [String] ?? []) == Set(task["depends"] as? [String] ?? []), "\(task["description"] ?? uuid)")
            #expect(there["parenttask"] as? String == task["parenttask"] as? String, "\(task["description"] ?? uuid)")
        }
        // As Taskwarrior itself reports them, by its own ids.
        for (uuid, _) in theirs {
            let before = try await original.task("_get", "\(uuid).depends")
            let after = try await back.task("_get", "\(uuid).depends")
            #expect(uuids(after) == uuids(before), "\(uuid)")
        }
        let tripHere = try await back.task("_get", "\(trip).id")
        #expect(try await back.task("_get", "\(tripHere).depends").split(separator: ",").count == 2)
        // The trip and the passport wait for something; Pack's task is not there to wait for.
        #expect(try await back.task("+BLOCKED", "_uuids").split(whereSeparator: \.isWhitespace).count == 2)
    }

    /// A file whose tasks depend on each other round a cycle (Taskwarrior's
    /// command line refuses one, a file need not): imported, listed and
    /// exported as it came, with the links kept.
    @Test(.enabled(if: ExternalPrograms.available(ExternalPrograms.task)))
    func aCycleImportsListsAndGoesBack() async throws {
        let a = "aaaaaaaa-0000-4000-8000-000000000001"
        let b = "bbbbbbbb-0000-4000-8000-000000000002"
        let cycle = """
            [{"uuid":"\(a)","description":"chicken","status":"pending","entry":"20261101T080000Z","depends":["\(b)"],"parenttask":"\(b)"},
            {"uuid":"\(b)","description":"egg","status":"pending","entry":"20261101T080000Z","depends":["\(a)","\(b)"],"parenttask":"\(a)"}]
            """
        let daemon = try DaemonProcess()
        try await daemon.start()
        let file = daemon.directory.appendingPathComponent("cycle.json").path
        try cycle.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try await todoctl("import", file, socket: daemon.socket)
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout.contains("depends \(b) kept as it came for Taskwarrior: it names the item itself"), "\(imported.stdout)")
        let listed = try await todoctl("ls", socket: daemon.socket)
        #expect(listed.status == 0 && listed.stdout.contains("chicken") && listed.stdout.contains("egg"), "\(listed)")
        #expect(try await todoctl("show", "1", socket: daemon.socket).status == 0)

        let ours = try await todoctl("export", "--format", "taskwarrior", socket: daemon.socket).stdout
        let written = try tasks(ours)
        #expect(written[a]?["depends"] as? [String] == [b], "\(ours)")
        #expect(Set(written[b]?["depends"] as? [String] ?? []) == [a, b], "\(ours)")
        #expect(written[a]?["parenttask"] as? String == b && written[b]?["parenttask"] as? String == a, "\(ours)")
        // Completing one of them, and deleting it, goes round no cycle for ever.
        #expect(try await todoctl("done", "1", socket: daemon.socket).status == 0)
        #expect(try await todoctl("ls", "status:all", socket: daemon.socket).status == 0)

        let back = try TaskwarriorHome()
        try NothingDroppedEndToEndTests.append(Self.parentAttribute, to: back.file("taskrc"))
        try ours.write(toFile: back.file("ours.json"), atomically: true, encoding: .utf8)
        try await back.task("import", back.file("ours.json"))
        #expect(uuids(try await back.task("_get", "\(a).depends")) == [b])
    }
}
