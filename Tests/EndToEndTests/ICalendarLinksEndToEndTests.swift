import Foundation
import TestSupport
import Testing

/// Links between to-dos through python's icalendar and back, with the real
/// todoctl and todod: `RELATED-TO` (`RELTYPE=PARENT`, the default) is a
/// subtask's parent, `RELTYPE=DEPENDS-ON` a dependency, each naming the
/// other to-do by its UID; other relations, and UIDs no to-do has, are
/// kept as they came.
@Suite struct ICalendarLinksEndToEndTests {
    @Test(.enabled(if: ExternalPrograms.pythonHasICalendar))
    func relatedToIsAParentOrADependencyAndGoesBack() async throws {
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
                def todo(uid, summary, *related):
                    t = icalendar.Todo(); t.add('uid', uid); t.add('summary', summary)
                    t.add('dtstamp', datetime.datetime(2026, 11, 1, 8, 0, tzinfo=datetime.timezone.utc))
                    for value, params in related: t.add('related-to', value, parameters=params)
                    cal.add_component(t)
                todo('trip@example.com', 'Plan the trip')
                todo('flights@example.com', 'Book the flights', ('trip@example.com', {'RELTYPE': 'PARENT'}))
                todo('passport@example.com', 'Renew the passport', ('trip@example.com', {}),
                     ('flights@example.com', {'RELTYPE': 'DEPENDS-ON'}), ('flights@example.com', {'RELTYPE': 'SIBLING'}),
                     ('missing@example.com', {'RELTYPE': 'DEPENDS-ON', 'X-NOTE': 'kept'}))
                open(sys.argv[1], 'wb').write(cal.to_ical())
                """,
                theirs,
            ])
        let imported = try await todoctl("import", theirs, socket: daemon.socket)
        #expect(imported.status == 0, "\(imported)")
        #expect(
            imported.stdout.contains(
                "“Renew the passport”\n    kept as they came for calendars, unused by todod: RELATED-TO\n"
                    + "    RELATED-TO missing@example.com kept as it came for calendars: no item of the file or the list has it\n"),
            "\(imported.stdout)")
        #expect(imported.stdout.hasSuffix("imported from iCalendar: 3 added, 0 updated, 0 unchanged, 0 skipped\n"), "\(imported.stdout)")

        // In Taskwarrior's terms: the same tasks, linked by their UUIDs.
        let json = try await todoctl("export", "--format", "taskwarrior", socket: daemon.socket).stdout
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let byTitle = Dictionary(array.map { ($0["description"] as? String ?? "", $0) }) { first, _ in first }
        let tripUUID = try #require(byTitle["Plan the trip"]?["uuid"] as? String)
        let flightsUUID = try #require(byTitle["Book the flights"]?["uuid"] as? String)
        #expect(byTitle["Book the flights"]?["parenttask"] as? String == tripUUID, "\(json)")
        #expect(byTitle["Renew the passport"]?["parenttask"] as? String == tripUUID, "\(json)")
        #expect(byTitle["Renew the passport"]?["depends"] as? [String] == [flightsUUID], "\(json)")

        let exported = try await todoctl("export", "--format", "ical", socket: daemon.socket)
        try exported.stdout.write(toFile: ours, atomically: true, encoding: .utf8)
        // python reads todod's calendar: each to-do's relations, by UID,
        // with their parameters.
        let read = try await output(
            of: ExternalPrograms.python,
            [
                "-c",
                """
                import icalendar, sys
                cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
                for todo in cal.walk('VTODO'):
                    related = todo.get('RELATED-TO', [])
                    if not isinstance(related, list): related = [related]
                    print(str(todo['UID']), sorted((str(r), sorted(r.params.items())) for r in related))
                """,
                ours,
            ])
        #expect(
            read == """
                trip@example.com []
                flights@example.com [('trip@example.com', [('RELTYPE', 'PARENT')])]
                passport@example.com [('flights@example.com', [('RELTYPE', 'DEPENDS-ON')]), ('flights@example.com', [('RELTYPE', 'SIBLING')]), \
                ('missing@example.com', [('RELTYPE', 'DEPENDS-ON'), ('X-NOTE', 'kept')]), ('trip@example.com', [('RELTYPE', 'PARENT')])]
                """, "\(read)\n\(exported.stdout)")

        // Read back, it is the same list.
        let again = try await todoctl("import", ours, socket: daemon.socket)
        #expect(again.stdout.hasSuffix("0 added, 0 updated, 3 unchanged, 0 skipped\n"), "\(again.stdout)")
    }
}
