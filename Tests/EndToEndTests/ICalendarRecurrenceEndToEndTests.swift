import Foundation
import Testing

/// An exported repetition means in any RFC 5545 reader what it means to
/// todod: python-dateutil's `rrule` expands each exported `RRULE` from its
/// `DTSTART` to the same days todod gives the item's occurrences as it is
/// completed again and again (month ends, leap days, weekdays, intervals).
@Suite struct ICalendarRecurrenceEndToEndTests {
    /// Title, shorthand: each repeats from a date in 2027 or 2028, after
    /// today, so every completion counts from the due date.
    static let repetitions = [
        ("rent", "recur:monthly due:2027-01-31"),
        ("every other month", "recur:2m due:2027-08-31"),
        ("on the thirtieth", "recur:monthly due:2027-01-30"),
        ("leap day", "recur:yearly due:2028-02-29"),
        ("mid month", "recur:monthly due:2027-01-15"),
        ("standup", "recur:weekdays due:2027-01-01"),
        ("water", "recur:3d due:2027-01-01"),
        ("bins", "recur:2w due:2027-01-04"),
        // At a time of day late enough to be the next day in UTC, across
        // the changes of summer time in todod's zone (New York).
        ("late standup", "recur:weekdays due:2027-03-05T22:30"),
        ("month end at night", "recur:monthly due:2027-01-31T23:15"),
    ]
    /// Repetitions that end at their `until` (RRULE;UNTIL), with how many
    /// occurrences todod makes, the until day's own included.
    static let ending = [
        ("weekly until", "recur:weekly due:2027-01-04 until:2027-02-01", 5),
        ("late until", "recur:weekdays due:2027-03-05T22:30 until:2027-03-10", 4),
    ]
    static let zone = TimeZone(identifier: "America/New_York")!
    static let occurrences = 14

    /// A row's `due`: a day as it is, a moment (`…T03:30:00Z`) as its day in `zone`.
    static func localDay(_ due: String) -> String {
        guard due.count > 10, let moment = ISO8601DateFormatter().date(from: due) else { return due }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: moment)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    @Test(.enabled(if: ExternalPrograms.pythonHasICalendar))
    func dateutilExpandsEachExportedRuleToTododsOccurrences() async throws {
        let daemon = try DaemonProcess()
        daemon.environment["TZ"] = Self.zone.identifier
        try await daemon.start()
        for (title, shorthand) in Self.repetitions + Self.ending.map({ ($0.0, $0.1) }) {
            let added = try await todoctl(arguments: ["add", title] + shorthand.split(separator: " ").map(String.init), socket: daemon.socket)
            #expect(added.status == 0, "\(added)")
        }
        let exported = try await todoctl("export", "--format", "ical", socket: daemon.socket)
        let calendar = daemon.directory.appendingPathComponent("export.ics").path
        try exported.stdout.write(toFile: calendar, atomically: true, encoding: .utf8)

        // todod's occurrences: complete each item's newest occurrence, again and again.
        for _ in 1..<Self.occurrences {
            for (title, _) in Self.repetitions {
                let open = try await rows().last { $0.title == title && !$0.done }
                let id = try #require(open?.id, "no open \(title)")
                let done = try await todoctl("done", "\(id)", socket: daemon.socket)
                #expect(done.status == 0, "\(done)")
            }
            for (title, _, _) in Self.ending {
                guard let open = try await rows().last(where: { $0.title == title && !$0.done }) else { continue }
                #expect(try await todoctl("done", "\(open.id)", socket: daemon.socket).status == 0)
            }
        }
        var todod: [String: [String]] = [:]
        for row in try await rows() { todod[row.title, default: []].append(row.due) }

        let expanded = try await output(
            of: ExternalPrograms.python,
            [
                "-c",
                """
                import sys, datetime, itertools, icalendar
                from dateutil.rrule import rrulestr
                calendar = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
                for todo in calendar.walk('VTODO'):
                    start = todo.decoded('DTSTART')
                    if not isinstance(start, datetime.datetime):
                        start = datetime.datetime.combine(start, datetime.time())
                    rule = rrulestr(todo['RRULE'].to_ical().decode(), dtstart=start)
                    days = [d.date().isoformat() for d in itertools.islice(rule, int(sys.argv[2]))]
                    print(str(todo['SUMMARY']) + '\\t' + ' '.join(days))
                """,
                calendar, "\(Self.occurrences)",
            ])
        var dateutil: [String: [String]] = [:]
        for line in expanded.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            dateutil[String(parts[0])] = parts.count > 1 ? parts[1].split(separator: " ").map(String.init) : []
        }
        for (title, _) in Self.repetitions {
            #expect(todod[title]?.count == Self.occurrences, "\(title): \(todod[title] ?? [])")
            #expect(dateutil[title] == todod[title], "\(title): dateutil \(dateutil[title] ?? []), todod \(todod[title] ?? [])\n\(exported.stdout)")
        }
        for (title, _, count) in Self.ending {
            #expect(todod[title]?.count == count, "\(title): \(todod[title] ?? [])")
            #expect(dateutil[title] == todod[title], "\(title): dateutil \(dateutil[title] ?? []), todod \(todod[title] ?? [])\n\(exported.stdout)")
        }
        #expect(exported.stdout.contains(";UNTIL=20270201\r\n"), "\(exported.stdout)")
        #expect(exported.stdout.contains(";UNTIL=20270310T235959\r\n"), "\(exported.stdout)")
        // The month ends are there, not skipped.
        #expect(todod["rent"]?.prefix(4) == ["2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30"])
        #expect(todod["leap day"]?.prefix(2) == ["2028-02-29", "2029-02-28"])
        #expect(todod["late standup"]?.prefix(3) == ["2027-03-05", "2027-03-08", "2027-03-09"])
        #expect(exported.stdout.contains("DTSTART:20270305T223000\r\n"), "floating local time: \(exported.stdout)")

        /// Every row of the main view (done ones too), by id: oldest first.
        func rows() async throws -> [(id: Int, title: String, done: Bool, due: String)] {
            let listed = try await todoctl("ls", "--json", socket: daemon.socket)
            let state = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
            let rows = try #require(state["rows"] as? [[String: Any]])
            return rows.compactMap { row in
                guard let id = row["id"] as? Int, let title = row["title"] as? String, let done = row["done"] as? Bool,
                    let due = row["due"] as? String
                else { return nil }
                return (id, title, done, Self.localDay(due))
            }.sorted { $0.id < $1.id }
        }
    }
}
