import Foundation
import Testing

/// A to-do that python's icalendar writes with DTSTART and DURATION, and no
/// DUE (RFC 5545 §3.6.2), imported through todoctl and todod: it is due at
/// their sum, counted across a change to summer time.
@Suite struct ICalendarDurationEndToEndTests {
    @Test(.enabled(if: ExternalPrograms.pythonHasICalendar))
    func aToDoWithAStartAndADurationIsDueAtTheirSum() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let calendar = daemon.directory.appendingPathComponent("theirs.ics").path
        _ = try await output(
            of: ExternalPrograms.python,
            [
                "-c",
                """
                import icalendar, sys, datetime, pytz
                cal = icalendar.Calendar(); cal.add('prodid', '-//test//EN'); cal.add('version', '2.0')
                todo = icalendar.Todo(); todo.add('uid', 'boiler@example.com'); todo.add('summary', 'Service the boiler')
                todo.add('dtstart', pytz.timezone('Europe/Berlin').localize(datetime.datetime(2030, 3, 30, 9, 0)))
                todo.add('duration', datetime.timedelta(days=1, hours=2))
                cal.add_component(todo)
                open(sys.argv[1], 'wb').write(cal.to_ical())
                """,
                calendar,
            ])
        let written = try String(contentsOfFile: calendar, encoding: .utf8)
        #expect(written.contains("DURATION:P1DT2H") && !written.contains("DUE"), "\(written)")
        let imported = try await todoctl("import", calendar, socket: daemon.socket)
        #expect(imported.status == 0, "\(imported)")
        let exported = try await todoctl("export", "--format", "taskwarrior", socket: daemon.socket)
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [[String: Any]])
        // 30 March 09:00 in Berlin (UTC+1), a calendar day later across the
        // change to summer time (31 March, UTC+2) is 09:00 again, then 2 h.
        #expect(tasks.first?["due"] as? String == "20300331T090000Z", "\(exported.stdout)")
    }
}
