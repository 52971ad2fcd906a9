import Foundation

@testable import TodoSync

extension TimeZone {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let newYork = TimeZone(identifier: "America/New_York")!
}

/// `20261211T081500Z` as an instant.
func instant(_ text: String) -> Date {
    guard let date = CalendarInstant.utc(text) else { fatalError("not a UTC instant: \(text)") }
    return date
}

/// The lines as a calendar writes them: each ended by CRLF.
func crlf(_ lines: [String]) -> String { lines.map { $0 + "\r\n" }.joined() }

/// The to-do a server would hand over holding `lines` (properties and
/// nested `BEGIN:`…`END:` blocks), read as a resource is read.
func todo(_ lines: [String]) throws -> TodoComponent {
    try CalendarResource(parsing: crlf(["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO"] + lines + ["END:VTODO", "END:VCALENDAR"])).todo
}

/// The lines of `todo`'s properties of `field` (its property names, as `SyncField` groups them).
func lines(of field: String, in todo: TodoComponent) -> [String] {
    todo.properties.filter { SyncField.of($0.name) == field }.map(\.line)
}

/// The sides as todod's sync names them when the server is Tasks.org.
let tasksOrgSides = ThreeWayMerge.Sides(local: "todod", remote: "Tasks.org")

/// When the sync runs in the merge tests.
let syncTime = instant("20261212T120000Z")

func merge(base: TodoComponent?, local: TodoComponent, remote: TodoComponent, timeZone: TimeZone = .berlin) -> ThreeWayMerge.Result {
    ThreeWayMerge.merge(base: base, local: local, remote: remote, sides: tasksOrgSides, now: syncTime, timeZone: timeZone)
}

/// Calendar objects as the programs that sync with todod write them.
enum Written {
    /// Thunderbird 128: its time zone, a weekly to-do, and one changed
    /// occurrence of it (done early, retitled); a long description folded
    /// at 75 octets with its HTML as ALTREP; an alarm.
    static let thunderbird = """
        BEGIN:VCALENDAR\r
        PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN\r
        VERSION:2.0\r
        BEGIN:VTIMEZONE\r
        TZID:Europe/Berlin\r
        X-TZINFO:Europe/Berlin[2024b]\r
        BEGIN:STANDARD\r
        TZOFFSETTO:+010000\r
        TZOFFSETFROM:+020000\r
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r
        DTSTART:19961027T030000\r
        TZNAME:CET\r
        END:STANDARD\r
        BEGIN:DAYLIGHT\r
        TZOFFSETTO:+020000\r
        TZOFFSETFROM:+010000\r
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r
        DTSTART:19810329T020000\r
        TZNAME:CEST\r
        END:DAYLIGHT\r
        END:VTIMEZONE\r
        BEGIN:VTODO\r
        CREATED:20261201T080000Z\r
        LAST-MODIFIED:20261210T101500Z\r
        DTSTAMP:20261210T101500Z\r
        UID:0d5c8b9e-3c1a-4f5e-9e47-1b2a3c4d5e6f\r
        SUMMARY:Water the plants\r
        RRULE:FREQ=WEEKLY;BYDAY=FR\r
        STATUS:NEEDS-ACTION\r
        DTSTART;TZID=Europe/Berlin:20261204T090000\r
        DUE;TZID=Europe/Berlin:20261204T180000\r
        SEQUENCE:2\r
        X-MOZ-GENERATION:3\r
        DESCRIPTION;ALTREP="data:text/html,%3Cp%3EUse%20the%20blue%20can%3C%2Fp%3E"\r
         :Use the blue can for the ferns on the balcony and the small one \r
         for the cactus\\, it needs only a little.\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER;VALUE=DURATION;RELATED=START:-PT15M\r
        DESCRIPTION:Default Mozilla Description\r
        END:VALARM\r
        END:VTODO\r
        BEGIN:VTODO\r
        CREATED:20261201T080000Z\r
        LAST-MODIFIED:20261211T070000Z\r
        DTSTAMP:20261211T070000Z\r
        UID:0d5c8b9e-3c1a-4f5e-9e47-1b2a3c4d5e6f\r
        SUMMARY:Water the plants (the balcony too)\r
        RECURRENCE-ID;TZID=Europe/Berlin:20261211T090000\r
        STATUS:COMPLETED\r
        COMPLETED:20261211T070000Z\r
        PERCENT-COMPLETE:100\r
        DTSTART;TZID=Europe/Berlin:20261211T090000\r
        DUE;TZID=Europe/Berlin:20261211T180000\r
        SEQUENCE:2\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    /// The master to-do's unfolded description, as `thunderbird` folds it.
    static let thunderbirdDescription =
        "DESCRIPTION;ALTREP=\"data:text/html,%3Cp%3EUse%20the%20blue%20can%3C%2Fp%3E\":Use the blue can for the ferns "
        + "on the balcony and the small one for the cactus\\, it needs only a little."

    /// Tasks.org on Android (through its own CalDAV client): a subtask of
    /// another to-do, due on a day, low priority, a tag, its default alarm.
    static let tasksOrg = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:+//IDN tasks.org//android-130904//EN\r
        BEGIN:VTODO\r
        DTSTAMP:20261211T081500Z\r
        UID:6285093141925946721\r
        CREATED:20261201T080000Z\r
        LAST-MODIFIED:20261211T081500Z\r
        SUMMARY:Buy oat milk\r
        PRIORITY:9\r
        DUE;VALUE=DATE:20261212\r
        X-APPLE-SORT-ORDER:-1240418114\r
        RELATED-TO;RELTYPE=PARENT:7813457394758345823\r
        CATEGORIES:Groceries\r
        BEGIN:VALARM\r
        TRIGGER;RELATED=END:PT0S\r
        ACTION:DISPLAY\r
        DESCRIPTION:Default Tasks.org description\r
        END:VALARM\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    /// python caldav (with the icalendar package): its PRODID, CALSCALE,
    /// and a summary longer than a line, folded by icalendar.
    static let pythonCaldav = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//python-caldav//caldav//en_DK\r
        CALSCALE:GREGORIAN\r
        BEGIN:VTODO\r
        SUMMARY:Renew the passport before the trip to Lisbon and ask about the \r
         visa for the children\r
        DUE;VALUE=DATE:20261215\r
        DTSTAMP:20261209T120000Z\r
        UID:4d1b6f0a-9f2e-11ef-8e3b-0242ac120002\r
        PRIORITY:1\r
        STATUS:NEEDS-ACTION\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    /// todod's own export of the same Tasks.org to-do, the version both
    /// sides last agreed on: notes twice (DESCRIPTION, and X-TODOD-NOTE
    /// with their dates), the project as X-TODOD-PROJECT.
    static let todod = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//todod//todod 0.9.0//EN\r
        BEGIN:VTODO\r
        UID:6285093141925946721\r
        DTSTAMP:20261201T090000Z\r
        CREATED:20261201T080000Z\r
        LAST-MODIFIED:20261201T090000Z\r
        SUMMARY:Buy milk\r
        STATUS:NEEDS-ACTION\r
        DUE;VALUE=DATE:20261211\r
        PRIORITY:9\r
        CATEGORIES:groceries\r
        DESCRIPTION:the organic one\\nfrom the market\r
        X-TODOD-NOTE;X-ADDED=20261201T083000Z:the organic one\r
        X-TODOD-NOTE;X-ADDED=20261201T090000Z:from the market\r
        X-TODOD-PROJECT:home\r
        RELATED-TO;RELTYPE=PARENT:7813457394758345823\r
        END:VTODO\r
        END:VCALENDAR\r

        """
}

extension TodoComponent {
    /// The to-do with each of `lines` set in place of the properties of its name.
    func with(_ lines: String...) -> TodoComponent {
        var todo = self
        for line in lines {
            let name = String(line.prefix { $0 != ";" && $0 != ":" }).uppercased()
            todo.set(name, line: line)
        }
        return todo
    }

    /// The to-do without the properties named `names`.
    func without(_ names: String...) -> TodoComponent {
        var todo = self
        todo.properties.removeAll { names.contains($0.name) }
        return todo
    }

    /// The to-do with `component` (`BEGIN:` to `END:`) nested in it.
    func adding(_ component: [String]) -> TodoComponent {
        var todo = self
        todo.components.append(component)
        return todo
    }
}

let tasksOrgAlarm = ["BEGIN:VALARM", "TRIGGER;RELATED=END:PT0S", "ACTION:DISPLAY", "DESCRIPTION:Default Tasks.org description", "END:VALARM"]
