import Foundation
import TestSupport
import Testing

/// A round trip through todod gives back what other programs keep, as they
/// wrote it: the fields todod declares (Taskwarrior's `scheduled` and
/// `until`, a calendar's `DTSTART`) and what it does not model (`depends`,
/// `start` and user-defined attributes todod.conf does not declare; a
/// calendar's alarms, `URL`, `LOCATION`, `GEO`, `CLASS`, `PERCENT-COMPLETE`,
/// `ATTACH`, `RELATED-TO` and `X-` properties). Real Taskwarrior 2.6 and
/// python's icalendar write the files and read todod's.
@Suite struct NothingDroppedEndToEndTests {
    /// Attributes Taskwarrior works out anew on every export.
    static let recomputed: Set<String> = ["id", "urgency"]

    @Test(.enabled(if: ExternalPrograms.available(ExternalPrograms.task)))
    func taskToTododToTaskKeepsEveryFieldOfEveryTask() async throws {
        let udas = "uda.estimate.type=numeric\nuda.estimate.label=Estimate\nuda.client.type=string\nuda.client.label=Client\n"
        let original = try TaskwarriorHome()
        try Self.append(udas, to: original.file("taskrc"))
        try await original.task("add", "Plan the trip", "+travel", "project:home", "priority:M", "due:2030-03-01",
            "scheduled:2030-02-20", "until:2030-04-01", "estimate:3.5", "client:Acme")
        try await original.task("add", "Book the flights", "depends:1", "wait:2030-01-10", "estimate:1")
        try await original.task("1", "annotate", "ask about visas")
        try await original.task("2", "start")
        try await original.task("add", "Renew the passport", "client:Home office")
        try await original.task("3", "done")
        let exported = try await original.task("export")
        try exported.write(toFile: original.file("export.json"), atomically: true, encoding: .utf8)
        let theirs = try Self.tasks(exported)
        #expect(theirs.count == 3)
        #expect(theirs.values.contains { $0["depends"] != nil && $0["start"] != nil }, "\(exported)")

        let daemon = try DaemonProcess()
        try await daemon.start()
        let imported = try await todoctl("import", original.file("export.json"), socket: daemon.socket)
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout.contains("kept as they came for Taskwarrior, unused by todod: client, estimate\n"), "\(imported.stdout)")
        let shown = try await todoctl("show", "1", socket: daemon.socket)
        #expect(shown.stdout.contains("kept        for Taskwarrior: client Acme, estimate 3.5\n"), "\(shown.stdout)")
        // Kept across a restart: in the database, not only in memory.
        _ = try await daemon.terminate()
        try await daemon.start()
        let ours = try await todoctl("export", "--format", "taskwarrior", socket: daemon.socket).stdout

        let back = try TaskwarriorHome()
        try Self.append(udas, to: back.file("taskrc"))
        try ours.write(toFile: back.file("ours.json"), atomically: true, encoding: .utf8)
        try await back.task("import", back.file("ours.json"))
        let returned = try Self.tasks(try await back.task("export"))
        #expect(Set(returned.keys) == Set(theirs.keys))
        for (uuid, task) in theirs {
            let there = try #require(returned[uuid])
            let fields = Set(task.keys).subtracting(Self.recomputed)
            #expect(Set(there.keys).subtracting(Self.recomputed) == fields, "\(task["description"] ?? uuid)")
            for field in fields where field != "tags" {
                #expect((there[field] as? NSObject) == (task[field] as? NSObject), "\(task["description"] ?? uuid): \(field): \(there[field] ?? "none") for \(task[field] ?? "none")")
            }
            #expect(Set(there["tags"] as? [String] ?? []) == Set(task["tags"] as? [String] ?? []))
        }
    }

    @Test(.enabled(if: ExternalPrograms.pythonHasICalendar))
    func icalToTododToIcalKeepsEveryProperty() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let theirs = daemon.directory.appendingPathComponent("theirs.ics").path
        let ours = daemon.directory.appendingPathComponent("ours.ics").path
        _ = try await output(
            of: ExternalPrograms.python,
            [
                "-c",
                """
                import icalendar, sys, datetime
                cal = icalendar.Calendar(); cal.add('prodid', '-//another program//EN'); cal.add('version', '2.0')
                todo = icalendar.Todo()
                todo.add('uid', 'trip@example.com'); todo.add('dtstamp', datetime.datetime(2026, 11, 1, 8, 0, tzinfo=datetime.timezone.utc))
                todo.add('summary', 'Plan the trip'); todo.add('priority', 1); todo.add('categories', ['travel'])
                todo.add('due', datetime.datetime(2030, 3, 1, 17, 0, tzinfo=datetime.timezone.utc))
                todo.add('dtstart', datetime.date(2030, 2, 20))
                todo.add('url', 'https://example.com/trip'); todo.add('location', 'Lisbon; old town')
                todo.add('geo', (38.71, -9.14)); todo.add('class', 'PRIVATE'); todo.add('percent-complete', 40)
                todo.add('attach', 'https://example.com/plan.pdf', parameters={'FMTTYPE': 'application/pdf'})
                todo.add('related-to', 'travel@example.com', parameters={'RELTYPE': 'PARENT'})
                todo.add('sequence', 3); todo.add('x-apple-sort-order', 512)
                todo.add('x-odd', 'kept; as, it came', parameters={'X-WHY': 'because'})
                alarm = icalendar.Alarm(); alarm.add('action', 'DISPLAY'); alarm.add('description', 'Plan the trip')
                alarm.add('trigger', datetime.timedelta(minutes=-15)); todo.add_component(alarm)
                cal.add_component(todo)
                open(sys.argv[1], 'wb').write(cal.to_ical())
                """,
                theirs,
            ])
        let imported = try await todoctl("import", theirs, socket: daemon.socket)
        #expect(imported.status == 0, "\(imported)")
        #expect(
            imported.stdout.contains(
                "kept as they came for calendars, unused by todod: ATTACH, CLASS, GEO, LOCATION, PERCENT-COMPLETE, "
                    + "RELATED-TO, SEQUENCE, URL, X-APPLE-SORT-ORDER, X-ODD, VALARM"), "\(imported.stdout)")
        let exported = try await todoctl("export", "--format", "ical", socket: daemon.socket)
        try exported.stdout.write(toFile: ours, atomically: true, encoding: .utf8)

        // Every property but those todod rewrites on purpose is there with
        // the same parameters and value (decoded: a date may be written in
        // another form), and the alarm is there whole.
        let compared = try await output(
            of: ExternalPrograms.python,
            [
                "-c",
                """
                import icalendar, sys
                def todo(path): return icalendar.Calendar.from_ical(open(path, 'rb').read()).walk('VTODO')[0]
                def props(component, skip):
                    # A date todod reads and writes anew is compared by its value.
                    return sorted((name, '' if name in ('DUE', 'COMPLETED') else repr(sorted(value.params.items())),
                                   str(value.dt) if hasattr(value, 'dt') else value.to_ical())
                                  for name, value in component.property_items(recursive=False)
                                  if name not in skip and name not in ('BEGIN', 'END'))
                theirs, ours = todo(sys.argv[1]), todo(sys.argv[2])
                rewritten = ('DTSTAMP', 'LAST-MODIFIED', 'SEQUENCE', 'CREATED')
                missing = [p for p in props(theirs, rewritten) if p not in props(ours, rewritten)]
                print('missing', missing)
                alarms = lambda c: [props(a, ()) for a in c.walk('VALARM')]
                print('alarms', alarms(theirs) == alarms(ours) and len(alarms(ours)) == 1)
                print('dtstamp', ours.decoded('DTSTAMP') > theirs.decoded('DTSTAMP'))
                print('dtstarts', len([1 for n, _ in ours.property_items(recursive=False) if n == 'DTSTART']))
                """,
                theirs, ours,
            ])
        #expect(compared.trimmingCharacters(in: .newlines) == "missing []\nalarms True\ndtstamp True\ndtstarts 1", "\(compared)\n\(exported.stdout)")
    }

    /// A file with more properties than an item may keep is refused whole,
    /// saying the limit; nothing is imported.
    @Test func tooManyForeignPropertiesAreRefusedWithTheLimit() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let many = (0..<10_000).map { "X-P\($0):\($0)" }.joined(separator: "\r\n")
        let file = daemon.directory.appendingPathComponent("many.ics").path
        try "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:x\r\n\(many)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try await todoctl("import", file, socket: daemon.socket)
        #expect(imported.status == 65, "\(imported)")
        #expect(imported.stderr.contains("to-do 1 (line 2): 10000 properties todod does not use; it keeps at most 1000 per item"), "\(imported.stderr)")
        #expect(try await todoctl("ls", socket: daemon.socket).stdout.contains("0 items left"))
    }

    /// Every task of a Taskwarrior export, by uuid.
    static func tasks(_ json: String) throws -> [String: [String: Any]] {
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        return Dictionary(array.map { ($0["uuid"] as? String ?? "", $0) }) { first, _ in first }
    }

    static func append(_ text: String, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }
}
