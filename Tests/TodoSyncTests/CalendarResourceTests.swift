import Foundation
import Testing

@testable import TodoSync

/// A calendar object resource as CalDAV servers hand it over: the one to-do
/// todod merges, and all that came with it (time zones, changed
/// occurrences, the calendar's own properties) kept as it came and written
/// back around the to-do. Anything that is not one to-do with a UID is a
/// `ResourceProblem` saying what is wrong.
@Suite struct CalendarResourceTests {
    @Test func thunderbirdsRepeatingToDoKeepsItsTimeZoneAndChangedOccurrenceAsCompanions() throws {
        let resource = try CalendarResource(parsing: Written.thunderbird)
        #expect(resource.productID == "-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN")
        #expect(resource.calendarProperties == [])
        #expect(resource.todo.uid == "0d5c8b9e-3c1a-4f5e-9e47-1b2a3c4d5e6f")
        // The to-do is the master, not the occurrence with RECURRENCE-ID.
        #expect(resource.todo.first("SUMMARY")?.value == "Water the plants")
        #expect(resource.todo.first("RECURRENCE-ID") == nil)
        #expect(resource.companions.count == 2)
        let timeZone = try #require(resource.companions.first)
        #expect(timeZone.first == "BEGIN:VTIMEZONE")
        #expect(timeZone.last == "END:VTIMEZONE")
        #expect(timeZone.count == 18)  // STANDARD and DAYLIGHT nested in it, whole
        #expect(timeZone.contains("TZNAME:CEST"))
        let occurrence = try #require(resource.companions.last)
        #expect(occurrence.first == "BEGIN:VTODO")
        #expect(occurrence.contains("RECURRENCE-ID;TZID=Europe/Berlin:20261211T090000"))
        #expect(occurrence.contains("SUMMARY:Water the plants (the balcony too)"))
        #expect(occurrence.last == "END:VTODO")
    }

    @Test func theToDosPropertiesComeInTheirOrderUnfoldedAndItsAlarmWhole() throws {
        let todo = try CalendarResource(parsing: Written.thunderbird).todo
        #expect(
            todo.properties.map(\.name) == [
                "CREATED", "LAST-MODIFIED", "DTSTAMP", "UID", "SUMMARY", "RRULE", "STATUS", "DTSTART", "DUE", "SEQUENCE",
                "X-MOZ-GENERATION", "DESCRIPTION",
            ])
        let description = try #require(todo.first("DESCRIPTION"))
        #expect(description.line == Written.thunderbirdDescription)
        #expect(description.parameters == ["ALTREP": "data:text/html,%3Cp%3EUse%20the%20blue%20can%3C%2Fp%3E"])
        #expect(description.value.hasSuffix("the small one for the cactus\\, it needs only a little."))
        #expect(todo.first("DUE")?.parameters == ["TZID": "Europe/Berlin"])
        #expect(todo.first("DUE")?.value == "20261204T180000")
        #expect(
            todo.components == [
                [
                    "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;VALUE=DURATION;RELATED=START:-PT15M",
                    "DESCRIPTION:Default Mozilla Description", "END:VALARM",
                ]
            ])
        // The alarm's DESCRIPTION is the alarm's, not the to-do's.
        #expect(todo.properties.count { $0.name == "DESCRIPTION" } == 1)
        #expect(todo.lastModified == instant("20261210T101500Z"))
    }

    @Test func writingItBackKeepsEverythingThatCameWithTheToDo() throws {
        let resource = try CalendarResource(parsing: Written.thunderbird)
        let text = resource.text(productID: "-//todod//todod 0.9.0//EN")
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//todod//todod 0.9.0//EN\r\n"))
        #expect(text.hasSuffix("END:VTODO\r\nEND:VCALENDAR\r\n"))
        let again = try CalendarResource(parsing: text)
        #expect(again.productID == "-//todod//todod 0.9.0//EN")
        #expect(again.todo == resource.todo)
        #expect(again.companions == resource.companions)
        #expect(again.calendarProperties == resource.calendarProperties)
        // And once more: the same bytes.
        #expect(again.text(productID: "-//todod//todod 0.9.0//EN") == text)
        // Every line is CRLF-ended and folded to 75 octets.
        let physical = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
        #expect(physical.allSatisfy { $0.last == UInt8(ascii: "\r") && $0.count - 1 <= 75 })
        #expect(physical.contains { $0.first == UInt8(ascii: " ") })  // the description was long enough to fold
        #expect(text.components(separatedBy: "BEGIN:VTODO").count == 3)
        #expect(text.contains("RECURRENCE-ID;TZID=Europe/Berlin:20261211T090000\r\n"))
    }

    @Test func theCalendarsOwnPropertiesAreKeptButItsProductAndVersion() throws {
        let resource = try CalendarResource(parsing: Written.pythonCaldav)
        #expect(resource.productID == "-//python-caldav//caldav//en_DK")
        #expect(resource.calendarProperties == ["CALSCALE:GREGORIAN"])
        #expect(resource.companions == [])
        // icalendar's folded summary, unfolded where it was cut.
        #expect(
            resource.todo.first("SUMMARY")?.value
                == "Renew the passport before the trip to Lisbon and ask about the visa for the children")
        let text = resource.text(productID: "-//todod//todod 0.9.0//EN")
        #expect(text.contains("\r\nCALSCALE:GREGORIAN\r\n"))
        #expect(!text.contains("python-caldav"))
        #expect(text.components(separatedBy: "VERSION:").count == 2)
    }

    @Test func tasksOrgsSubtaskKeepsItsParentLinkSortOrderAndAlarm() throws {
        let resource = try CalendarResource(parsing: Written.tasksOrg)
        #expect(resource.productID == "+//IDN tasks.org//android-130904//EN")
        #expect(RemoteName.of(productID: resource.productID) == "Tasks.org")
        let todo = resource.todo
        #expect(todo.uid == "6285093141925946721")
        #expect(todo.first("RELATED-TO")?.parameters == ["RELTYPE": "PARENT"])
        #expect(todo.first("RELATED-TO")?.value == "7813457394758345823")
        #expect(todo.first("X-APPLE-SORT-ORDER")?.value == "-1240418114")
        #expect(todo.components.map { $0.first } == ["BEGIN:VALARM"])
        let text = resource.text(productID: "+//IDN tasks.org//android-130904//EN")
        #expect(try CalendarResource(parsing: text) == resource)
    }

    /// Some servers list a changed occurrence before the to-do it changes.
    @Test func anOccurrenceBeforeItsMasterIsStillACompanion() throws {
        let text = crlf([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Example Corp.//CalDAV Server//EN",
            "BEGIN:VTODO", "UID:weekly", "RECURRENCE-ID:20261211", "SUMMARY:this week's", "END:VTODO",
            "BEGIN:VTODO", "UID:weekly", "SUMMARY:every week", "RRULE:FREQ=WEEKLY", "END:VTODO",
            "END:VCALENDAR",
        ])
        let resource = try CalendarResource(parsing: text)
        #expect(resource.todo.first("SUMMARY")?.value == "every week")
        #expect(resource.companions == [["BEGIN:VTODO", "UID:weekly", "RECURRENCE-ID:20261211", "SUMMARY:this week's", "END:VTODO"]])
    }

    @Test func lineEndingsWithoutCRAndLowerCaseNamesAreReadAsWell() throws {
        let resource = try CalendarResource(parsing: "begin:vcalendar\nversion:2.0\nbegin:vtodo\nuid:lf\nsummary:LF only\nend:vtodo\nend:vcalendar\n")
        #expect(resource.todo.uid == "lf")
        #expect(resource.todo.first("SUMMARY")?.value == "LF only")
        #expect(resource.companions == [])
    }

    @Test func theUIDIsReadUnescaped() throws {
        let todo = try todo(["UID:list\\,42\\;a", "SUMMARY:x"])
        #expect(todo.uid == "list,42;a")
    }

    static let problems: [(String, String)] = [
        ("", "it is not an iCalendar object (no BEGIN:VCALENDAR)"),
        (crlf(["BEGIN:VTODO", "UID:a", "SUMMARY:no calendar", "END:VTODO"]), "it is not an iCalendar object (no BEGIN:VCALENDAR)"),
        (crlf(["VERSION:2.0", "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:a", "END:VTODO", "END:VCALENDAR"]),
         "it is not an iCalendar object (no BEGIN:VCALENDAR)"),
        (crlf(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "END:VCALENDAR"]),
         "it holds no to-do (VTODO)"),
        (crlf([
            "BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:meeting", "DTSTART:20261211T090000Z", "SUMMARY:Stand-up", "END:VEVENT",
            "END:VCALENDAR",
        ]), "it holds no to-do (VTODO)"),
        (crlf(["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:a", "RECURRENCE-ID:20261211", "END:VTODO", "END:VCALENDAR"]),
         "it holds no to-do (VTODO)"),
        (crlf(["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:a", "END:VTODO", "BEGIN:VTODO", "UID:b", "END:VTODO", "END:VCALENDAR"]),
         "it holds 2 to-dos; one resource holds one"),
        (crlf(["BEGIN:VCALENDAR", "BEGIN:VTODO", "SUMMARY:who am I", "END:VTODO", "END:VCALENDAR"]), "its to-do has no UID"),
        (crlf(["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:", "SUMMARY:x", "END:VTODO", "END:VCALENDAR"]), "its to-do has no UID"),
        (crlf(["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:a", "SUMMARY Buy milk", "END:VTODO", "END:VCALENDAR"]),
         "line 5: not an iCalendar line (NAME:VALUE): SUMMARY Buy milk"),
        (crlf(["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:a", "SUMMARY:cut short", "END:VCALENDAR"]), "BEGIN:VTODO has no END:VTODO"),
        (crlf(["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:a", "BEGIN:VALARM", "ACTION:DISPLAY", "END:VTODO", "END:VCALENDAR"]),
         "BEGIN:VTODO has no END:VTODO"),
    ]

    @Test(arguments: problems)
    func whatIsNotOneToDoIsAProblemSayingWhat(text: String, message: String) {
        #expect(throws: ResourceProblem(message)) { try CalendarResource(parsing: text) }
    }

    @Test func aProblemDescribesItselfAsItsMessage() {
        let problem = ResourceProblem("its to-do has no UID")
        #expect("\(problem)" == "its to-do has no UID")
    }
}
