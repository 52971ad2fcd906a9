import Foundation
import Testing
import TodoModel

@testable import TodoInterchange

/// Declared fields in iCalendar: `scheduled` is the start (`DTSTART`) of a
/// to-do that does not repeat, every other field an `X-TODOD-` property.
@Suite struct ICalendarFieldTests {
    static func lines(_ text: String) -> [String] { text.components(separatedBy: "\r\n") }

    /// The one to-do of a calendar with these properties, read with the declared fields.
    static func item(_ properties: String...) throws -> ImportedItem {
        let text = "BEGIN:VTODO\r\nUID:a\r\nSUMMARY:x\r\n" + properties.map { $0 + "\r\n" }.joined() + "END:VTODO\r\n"
        return try #require(try ICalendarFormat.read(text, timeZone: .berlin, fields: DeclaredFields.catalog).items.first)
    }

    @Test func eachKindGoesOutAsAPropertyAndComesBack() throws {
        let text = DeclaredFields.export([DeclaredFields.item], .ical)
        let lines = Self.lines(text)
        for line in [
            "DUE;VALUE=DATE:20261210", "DTSTART;VALUE=DATE:20261201", "X-TODOD-UNTIL:20270131T170000Z", "X-TODOD-SIZE:M",
            "X-TODOD-AREA:north", "X-TODOD-ESTIMATE:3.5", "X-TODOD-REVIEWED;VALUE=DATE:20261115",
            "X-TODOD-EFFORT;VALUE=DURATION:PT1H30M",
        ] {
            #expect(lines.contains(line), "\(line) in \(text)")
        }
        let read = try #require(try DeclaredFields.imported(text, .ical).first)
        #expect(read.values == DeclaredFields.declaredValues)
    }

    @Test func anOrphanGoesOutAsItsOwnPropertyAndIsKeptUntilDeclaredAgain() throws {
        let text = DeclaredFields.export([DeclaredFields.item], .ical)
        #expect(Self.lines(text).contains("X-TODOD-LEGACY;VALUE=DURATION:PT10M"), "\(text)")
        let read = try #require(try ICalendarFormat.read(text, timeZone: .berlin, fields: DeclaredFields.catalog).items.first)
        #expect(read.values == DeclaredFields.declaredValues)
        #expect(read.foreign.icalendar == ["X-TODOD-LEGACY;VALUE=DURATION:PT10M"])
        let declared = try #require(try ICalendarFormat.read(text, timeZone: .berlin, fields: DeclaredFields.withLegacy).items.first)
        #expect(declared.values == DeclaredFields.values)
        #expect(declared.foreign.isEmpty)
    }

    /// A repeating to-do's DTSTART is its due date, from which its RRULE
    /// counts: its `scheduled` date is todod's own property, and a
    /// calendar's DTSTART is not read as one.
    @Test func aRepeatingToDosStartIsItsDueDateAndScheduledItsOwnProperty() throws {
        var item = DeclaredFields.item
        item.recurrence = Recurrence.weekly.anchored(to: item.due!, in: .berlin)
        let text = DeclaredFields.export([item], .ical)
        let lines = Self.lines(text)
        #expect(lines.filter { $0.hasPrefix("DTSTART") } == ["DTSTART;VALUE=DATE:20261210"], "\(text)")
        #expect(lines.contains("X-TODOD-SCHEDULED;VALUE=DATE:20261201"), "\(text)")
        let read = try #require(try DeclaredFields.imported(text, .ical).first)
        #expect(read.values == DeclaredFields.declaredValues)
        #expect(read.recurrence == item.recurrence)

        let theirs = try Self.item("DUE;VALUE=DATE:20261210", "DTSTART;VALUE=DATE:20261201", "RRULE:FREQ=WEEKLY")
        #expect(theirs.values.isEmpty)
        #expect(theirs.remarks == ["start date (DTSTART) 20261201 left out: a repeating to-do starts at its due date"])
    }

    /// RFC 5545 has no DTSTART after DUE: a later `scheduled` is todod's own property.
    @Test func aStartAfterTheDueDateIsTodosOwnProperty() throws {
        var item = DeclaredFields.item
        item.due = .day(DeclaredFields.day(2026, 11, 30))
        let lines = Self.lines(DeclaredFields.export([item], .ical))
        #expect(!lines.contains { $0.hasPrefix("DTSTART") }, "\(lines)")
        #expect(lines.contains("X-TODOD-SCHEDULED;VALUE=DATE:20261201"))
        // A start on the due day fits, a day or a time.
        item.due = .moment(utc(2026, 12, 1, 9))
        #expect(Self.lines(DeclaredFields.export([item], .ical)).contains("DTSTART;VALUE=DATE:20261201"))
    }

    /// A calendar's RRULE;UNTIL is the item's `until` (a DATE that day; a
    /// DATE-TIME the second after it, todod's first excluded moment), and
    /// an export writes it back so that calendars stop where todod does.
    @Test func aRepetitionsUntilIsTheItemsUntilBothWays() throws {
        let byDay = try Self.item("DUE;VALUE=DATE:20261207", "RRULE:FREQ=WEEKLY;UNTIL=20270201")
        #expect(byDay.recurrence == .weekly)
        #expect(byDay.values["until"] == .date(.day(DeclaredFields.day(2027, 2, 1))))
        let byMoment = try Self.item("DUE:20261207T090000Z", "RRULE:FREQ=DAILY;UNTIL=20261231T085959Z")
        #expect(byMoment.values["until"] == .date(.moment(utc(2026, 12, 31, 9))))
        // todod's own X-TODOD-UNTIL wins.
        let own = try Self.item("DUE;VALUE=DATE:20261207", "RRULE:FREQ=WEEKLY;UNTIL=20270201", "X-TODOD-UNTIL;VALUE=DATE:20270301")
        #expect(own.values["until"] == .date(.day(DeclaredFields.day(2027, 3, 1))))

        var item = DeclaredFields.item
        item.recurrence = .weekly
        item.due = .day(DeclaredFields.day(2026, 12, 10))
        item.values["until"] = .date(.day(DeclaredFields.day(2027, 1, 31)))
        #expect(Self.lines(DeclaredFields.export([item], .ical)).contains("RRULE:FREQ=WEEKLY;UNTIL=20270131"))
    }

    /// A calendar's own DTSTART of a to-do that does not repeat is its
    /// `scheduled` date, in any of the forms DUE takes.
    @Test func aCalendarsStartIsScheduled() throws {
        #expect(try Self.item("DTSTART;TZID=America/New_York:20261201T090000").values == ["scheduled": .date(.moment(utc(2026, 12, 1, 14)))])
        #expect(try Self.item("DTSTART:20261201T090000").values == ["scheduled": .date(.moment(utc(2026, 12, 1, 8)))])
        let unreadable = try Self.item("DTSTART:someday")
        #expect(unreadable.values.isEmpty)
        #expect(unreadable.foreign.icalendar == ["DTSTART:someday"])
        #expect(unreadable.remarks.first == "DTSTART someday not used: not an iCalendar date (20240115 or 20240115T093000[Z])")
    }

    @Test func aValueThatDoesNotFitItsFieldIsKeptAsItCame() throws {
        let read = try Self.item("X-TODOD-SIZE:XL", "X-TODOD-ESTIMATE:lots", "X-TODOD-EFFORT:soon", "X-TODOD-SCHEDULED:2026")
        #expect(read.values.isEmpty)
        #expect(read.foreign.icalendar == ["X-TODOD-SIZE:XL", "X-TODOD-ESTIMATE:lots", "X-TODOD-EFFORT:soon", "X-TODOD-SCHEDULED:2026"])
        #expect(read.remarks == [
            "X-TODOD-SCHEDULED 2026 not used: not an iCalendar date (20240115 or 20240115T093000[Z])",
            "X-TODOD-SIZE XL not used: not one of S, M, L", "X-TODOD-ESTIMATE lots not used: not a number",
            "X-TODOD-EFFORT soon not used: not a duration (PT2H)",
            "kept as they came for calendars, unused by todod: X-TODOD-SIZE, X-TODOD-ESTIMATE, X-TODOD-EFFORT, X-TODOD-SCHEDULED",
        ])
        let item = TodoItem(id: TodoID(1), title: "x", createdAt: noon, foreign: read.foreign)
        let lines = Self.lines(ICalendarFormat.entry(item, listID: listID, now: noon, timeZone: .berlin, fields: DeclaredFields.catalog))
        for kept in read.foreign.icalendar { #expect(lines.contains(kept), "\(kept) in \(lines)") }
    }

    /// A property todod.conf declares no field for is kept as it came, as before.
    @Test func anUndeclaredPropertyIsStillKeptAsItCame() throws {
        let read = try Self.item("X-TODOD-CLIENT:Acme", "X-TODOD-ESTIMATE:2")
        #expect(read.values == ["estimate": .number(2)])
        #expect(read.foreign.icalendar == ["X-TODOD-CLIENT:Acme"])
        let item = TodoItem(id: TodoID(1), title: "x", createdAt: noon, values: read.values, foreign: read.foreign)
        let lines = Self.lines(ICalendarFormat.entry(item, listID: listID, now: noon, timeZone: .berlin, fields: DeclaredFields.catalog))
        #expect(lines.contains("X-TODOD-CLIENT:Acme") && lines.contains("X-TODOD-ESTIMATE:2"), "\(lines)")
    }

    @Test func textIsEscapedAndBounded() throws {
        var item = DeclaredFields.item
        item.values = ["area": .text("north, by; the \\ sea")]
        let text = DeclaredFields.export([item], .ical)
        #expect(Self.lines(text).contains(#"X-TODOD-AREA:north\, by\; the \\ sea"#), "\(text)")
        #expect(try DeclaredFields.imported(text, .ical).first?.values == item.values)
        #expect(throws: ImportProblem(location: "to-do 1 (line 1), line 4", message: "X-TODOD-AREA has control characters or line breaks; a field's text is one line")) {
            try Self.item(#"X-TODOD-AREA:two\nlines"#)
        }
    }

    /// A value set since wins over a property kept under its name before
    /// the field was declared; one not set since goes back as it came.
    @Test func aValueWinsOverWhatWasKeptUnderItsName() {
        let item = TodoItem(
            id: TodoID(1), title: "x", createdAt: noon, values: ["estimate": .number(5)],
            foreign: ForeignFields(icalendar: ["X-TODOD-ESTIMATE:3.5", "X-TODOD-UNTIL;VALUE=DATE:20270101"]))
        let lines = Self.lines(ICalendarFormat.entry(item, listID: listID, now: noon, timeZone: .berlin, fields: DeclaredFields.catalog))
        #expect(lines.filter { $0.hasPrefix("X-TODOD-ESTIMATE") } == ["X-TODOD-ESTIMATE:5"], "\(lines)")
        #expect(lines.contains("X-TODOD-UNTIL;VALUE=DATE:20270101"))
    }
}
