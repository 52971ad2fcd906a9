import Foundation
import Testing
import TodoInterchange

@testable import TodoSync

/// One VTODO as the merge handles it: when it last changed, setting a
/// property in place, writing it folded, and adding a note as todod writes
/// one (DESCRIPTION for every calendar, X-TODOD-NOTE with its date for
/// todod), which todod reads back as a note with that date.
@Suite struct TodoComponentTests {
    @Test func lastModifiedIsLastModifiedElseTheStamp() throws {
        let both = try todo(["UID:a", "DTSTAMP:20261211T081500Z", "LAST-MODIFIED:20261210T090000Z"])
        #expect(both.lastModified == instant("20261210T090000Z"))
        let stampOnly = try todo(["UID:a", "DTSTAMP:20261211T081500Z"])
        #expect(stampOnly.lastModified == instant("20261211T081500Z"))
        #expect(try todo(["UID:a"]).lastModified == nil)
        // Not a UTC instant (RFC 5545 asks for one): not known.
        #expect(try todo(["UID:a", "LAST-MODIFIED;TZID=Europe/Berlin:20261210T090000"]).lastModified == nil)
        #expect(try todo(["UID:a", "LAST-MODIFIED:20261210"]).lastModified == nil)
    }

    @Test func instantsAreReadAndWrittenInUTC() {
        let date = instant("20261211T081500Z")
        #expect(date == Date(timeIntervalSince1970: 1_796_976_900))
        #expect(CalendarInstant.compact(date) == "20261211T081500Z")
        #expect(CalendarInstant.compact(instant("20260102T030405Z")) == "20260102T030405Z")
        #expect(CalendarInstant.utc("20261211T081500") == nil)
        #expect(CalendarInstant.utc("2026121XT081500Z") == nil)
    }

    @Test func settingAPropertyPutsItWhereTheFirstWasAndDropsTheRest() throws {
        var component = try todo(["UID:a", "CATEGORIES:home", "SUMMARY:x", "CATEGORIES:work", "PRIORITY:1"])
        component.set("CATEGORIES", line: "CATEGORIES:garden")
        #expect(component.properties.map(\.line) == ["UID:a", "CATEGORIES:garden", "SUMMARY:x", "PRIORITY:1"])
        component.set("SEQUENCE", line: "SEQUENCE:3")
        #expect(component.properties.map(\.line) == ["UID:a", "CATEGORIES:garden", "SUMMARY:x", "PRIORITY:1", "SEQUENCE:3"])
        #expect(component.first("SEQUENCE")?.value == "3")
    }

    @Test func itsTextIsFoldedWithCRLFAndItsAlarmInside() throws {
        let long = String(repeating: "Ask about the visa for the children. ", count: 4)
        let component = try todo(["UID:a", "SUMMARY:" + long, "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM"])
        let text = component.text
        #expect(text.hasPrefix("BEGIN:VTODO\r\nUID:a\r\nSUMMARY:Ask about"))
        #expect(text.hasSuffix("BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\nEND:VTODO\r\n"))
        let physical = text.utf8.split(separator: UInt8(ascii: "\n")).map { $0.count - 1 }
        #expect(physical.allSatisfy { $0 <= 75 })
        #expect(physical.count == 10)  // the summary (160 octets) on three lines
        let again = try CalendarResource(parsing: "BEGIN:VCALENDAR\r\n" + text + "END:VCALENDAR\r\n").todo
        #expect(again == component)
    }

    @Test func aNoteIsALineOfTheDescriptionAndADatedXTododNote() throws {
        var component = try todo(["UID:a", "SUMMARY:Buy milk", "DUE;VALUE=DATE:20261212", "LAST-MODIFIED:20261211T081500Z"])
        component.addNote("conflict: Tasks.org set the title to “Buy oat milk\\, 1l”", at: syncTime)
        #expect(
            component.properties.map(\.line) == [
                "UID:a", "SUMMARY:Buy milk", "DUE;VALUE=DATE:20261212", "LAST-MODIFIED:20261211T081500Z",
                "DESCRIPTION:conflict: Tasks.org set the title to “Buy oat milk\\\\\\, 1l”",
                "X-TODOD-NOTE;X-ADDED=20261212T120000Z:conflict: Tasks.org set the title to “Buy oat milk\\\\\\, 1l”",
            ])
        #expect(SyncField.value(of: "DESCRIPTION", in: component) == ["conflict: Tasks.org set the title to “Buy oat milk\\, 1l”"])
    }

    @Test func aNoteGoesAfterTheNotesThereAreOnOneLine() throws {
        var component = try CalendarResource(parsing: Written.todod).todo
        component.addNote("conflict: Tasks.org set due to\nSat 12 Dec 2026", at: syncTime)
        #expect(
            component.properties.map(\.name) == [
                "UID", "DTSTAMP", "CREATED", "LAST-MODIFIED", "SUMMARY", "STATUS", "DUE", "PRIORITY", "CATEGORIES", "DESCRIPTION",
                "X-TODOD-NOTE", "X-TODOD-NOTE", "X-TODOD-NOTE", "X-TODOD-PROJECT", "RELATED-TO",
            ])
        #expect(component.first("DESCRIPTION")?.value == "the organic one\\nfrom the market\\nconflict: Tasks.org set due to Sat 12 Dec 2026")
        #expect(
            component.properties.filter { $0.name == "X-TODOD-NOTE" }.last?.line
                == "X-TODOD-NOTE;X-ADDED=20261212T120000Z:conflict: Tasks.org set due to Sat 12 Dec 2026")
    }

    /// What todod reads back (ICalendarFormat+Notes): the notes it had with
    /// their dates, and the new one dated when it was added.
    @Test func todoReadsTheNotesBackWithTheirDates() throws {
        var component = try CalendarResource(parsing: Written.todod).todo
        component.addNote("conflict: Tasks.org set the title to “Buy oat milk”", at: syncTime)
        let text = crlf(["BEGIN:VCALENDAR", "VERSION:2.0"]) + component.text + crlf(["END:VCALENDAR"])
        let item = try #require(try ICalendarFormat.read(text, timeZone: .berlin).items.first)
        #expect(item.notes.map(\.text) == ["the organic one", "from the market", "conflict: Tasks.org set the title to “Buy oat milk”"])
        #expect(item.notes.map(\.addedAt) == [instant("20261201T083000Z"), instant("20261201T090000Z"), syncTime])
    }

    /// A calendar that rewrote the description keeps todod's old X- lines:
    /// todod then reads the description, and still dates the new note.
    @Test func aNoteOnADescriptionACalendarRewroteIsReadWithTheDescription() throws {
        var component = try CalendarResource(parsing: Written.todod).todo
        component.set("DESCRIPTION", line: "DESCRIPTION:the organic one\\nfrom the farm shop")
        component.addNote("conflict: Tasks.org cleared due", at: syncTime)
        let text = crlf(["BEGIN:VCALENDAR", "VERSION:2.0"]) + component.text + crlf(["END:VCALENDAR"])
        let item = try #require(try ICalendarFormat.read(text, timeZone: .berlin).items.first)
        #expect(item.notes.map(\.text) == ["the organic one", "from the farm shop", "conflict: Tasks.org cleared due"])
        #expect(item.notes.first?.addedAt == instant("20261201T083000Z"))
        #expect(item.notes.last?.addedAt == syncTime)
    }
}
