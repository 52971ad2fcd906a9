import Foundation
import TestSupport
import Testing

/// Links in todo.txt, as topydo writes dependencies (`id:` on the line that
/// depends, `p:` on each line it depends on) and todod a subtask's parent
/// (`parent:` naming its parent's `id:`), through the real todoctl and
/// todod: imported, exported with todod's ids as labels, and read back.
@Suite struct TodoTxtLinksEndToEndTests {
    @Test func topydosDependenciesImportAndGoBack() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let file = daemon.directory.appendingPathComponent("todo.txt").path
        try """
            (B) Call mom id:1
            (B) Buy telephone p:1
            Plan the trip id:trip
            Book the flights parent:trip p:trip
            Water plants @home p:9

            """.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try await todoctl("import", file, socket: daemon.socket)
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout == """
            line 5: added 5 “Water plants p:9”
                p:9 kept in the title: no line has id:9
            imported from todo.txt: 5 added, 0 updated, 0 unchanged, 0 skipped

            """, "\(imported.stdout)")

        let exported = try await todoctl("export", "--format", "todotxt", socket: daemon.socket).stdout
        // Past the priority and the creation date todod writes.
        let lines = exported.split(separator: "\n").map {
            $0.replacingOccurrences(of: #"^(\([A-Z]\) )?\d{4}-\d{2}-\d{2} "#, with: "", options: .regularExpression)
        }
        #expect(lines == [
            "Call mom id:1", "Buy telephone p:1", "Plan the trip id:3", "Book the flights p:3 parent:3", "Water plants p:9 @home",
        ], "\(exported)")

        // The export imported again changes nothing.
        let copy = daemon.directory.appendingPathComponent("ours.txt").path
        try exported.write(toFile: copy, atomically: true, encoding: .utf8)
        let again = try await todoctl("import", copy, socket: daemon.socket)
        #expect(again.stdout.hasSuffix("imported from todo.txt: 0 added, 0 updated, 5 unchanged, 0 skipped\n"), "\(again.stdout)")
    }
}
