import Foundation
import Testing

@testable import TodoSync

/// The note that keeps a losing value says who set what to what, as a
/// person reads it: dates as days ("Fri 11 Dec 2026"), a UTC moment on the
/// clock of the person's time zone, the title and notes quoted, a cleared
/// field as cleared. And what the server's side is called, from its PRODID.
@Suite struct ConflictWordingTests {
    func note(_ field: String, _ lines: [String], timeZone: TimeZone = .berlin) throws -> String {
        ConflictWording.note(side: "Tasks.org", field: field, in: try todo(["UID:6285093141925946721"] + lines), timeZone: timeZone)
    }

    @Test func aDayIsItsWeekdayDayMonthAndYear() throws {
        #expect(try note("DUE", ["DUE;VALUE=DATE:20261211"]) == "conflict: Tasks.org set due to Fri 11 Dec 2026")
        // 12 December 2026 is a Saturday.
        #expect(try note("DUE", ["DUE;VALUE=DATE:20261212"]) == "conflict: Tasks.org set due to Sat 12 Dec 2026")
        #expect(try note("DUE", ["DUE;VALUE=DATE:20260701"], timeZone: .newYork) == "conflict: Tasks.org set due to Wed 1 Jul 2026")
        #expect(try note("DTSTART", ["DTSTART;VALUE=DATE:20261201"]) == "conflict: Tasks.org set the start to Tue 1 Dec 2026")
    }

    @Test func aUTCMomentIsSaidOnTheClockOfTheTimeZone() throws {
        #expect(try note("DUE", ["DUE:20261211T083000Z"]) == "conflict: Tasks.org set due to Fri 11 Dec 2026 09:30")
        #expect(try note("DUE", ["DUE:20261211T083000Z"], timeZone: .newYork) == "conflict: Tasks.org set due to Fri 11 Dec 2026 03:30")
        // Summer time, and a moment that is the next day in Berlin.
        #expect(try note("DUE", ["DUE:20260701T073000Z"]) == "conflict: Tasks.org set due to Wed 1 Jul 2026 09:30")
        #expect(try note("DUE", ["DUE:20261211T233000Z"]) == "conflict: Tasks.org set due to Sat 12 Dec 2026 00:30")
        #expect(try note("DUE", ["DUE:20261212T013000Z"], timeZone: .newYork) == "conflict: Tasks.org set due to Fri 11 Dec 2026 20:30")
    }

    @Test func aFloatingTimeOrOneInItsOwnZoneIsSaidAsWritten() throws {
        #expect(try note("DUE", ["DUE:20261211T093000"]) == "conflict: Tasks.org set due to Fri 11 Dec 2026 09:30")
        #expect(try note("DUE", ["DUE;TZID=Europe/Berlin:20261211T180000"], timeZone: .newYork) == "conflict: Tasks.org set due to Fri 11 Dec 2026 18:00")
        #expect(try note("DUE", ["DUE;TZID=America/New_York:20261211T093000"]) == "conflict: Tasks.org set due to Fri 11 Dec 2026 09:30")
    }

    @Test func todoDsOwnDatesAreDatesAndWhatIsNoDateIsAsItCame() throws {
        #expect(try note("X-TODOD-WAIT", ["X-TODOD-WAIT;VALUE=DATE:20261201"]) == "conflict: Tasks.org set wait to Tue 1 Dec 2026")
        #expect(try note("X-TODOD-SCHEDULED", ["X-TODOD-SCHEDULED:20261210T230000Z"]) == "conflict: Tasks.org set scheduled to Fri 11 Dec 2026 00:00")
        #expect(try note("X-TODOD-UNTIL", ["X-TODOD-UNTIL;VALUE=DATE:20261231"]) == "conflict: Tasks.org set until to Thu 31 Dec 2026")
        #expect(try note("DUE", ["DUE:soon"]) == "conflict: Tasks.org set due to soon")
    }

    @Test func aClearedFieldIsSaidCleared() throws {
        #expect(try note("DUE", []) == "conflict: Tasks.org cleared due")
        #expect(try note("SUMMARY", []) == "conflict: Tasks.org cleared the title")
        #expect(try note("CATEGORIES", []) == "conflict: Tasks.org cleared the tags")
        #expect(try note("BEGIN:VALARM", []) == "conflict: Tasks.org cleared the alarms")
        #expect(try note("URL", []) == "conflict: Tasks.org cleared URL")
        // Notes only in todod's X- lines are no notes (the calendar deleted them).
        #expect(try note("DESCRIPTION", ["X-TODOD-NOTE;X-ADDED=20261201T083000Z:the organic one"]) == "conflict: Tasks.org cleared the notes")
        #expect(try note("PRIORITY", ["PRIORITY:0"]) == "conflict: Tasks.org cleared the priority")
    }

    @Test func theTitleAndTheNotesAreQuotedUnescaped() throws {
        #expect(try note("SUMMARY", ["SUMMARY:Buy milk\\, eggs\\; bread"]) == "conflict: Tasks.org set the title to “Buy milk, eggs; bread”")
        #expect(
            try note("DESCRIPTION", ["DESCRIPTION:the organic one\\nfrom the market", "X-TODOD-NOTE:the organic one"])
                == "conflict: Tasks.org set the notes to “the organic one / from the market”")
    }

    @Test func statusPriorityAndTagsAreSaidAsTodoSaysThem() throws {
        #expect(try note("STATUS", ["STATUS:NEEDS-ACTION"]) == "conflict: Tasks.org set the status to needs action")
        #expect(try note("STATUS", ["STATUS:IN-PROCESS", "PERCENT-COMPLETE:40"]) == "conflict: Tasks.org set the status to in process, 40%")
        #expect(try note("STATUS", ["COMPLETED:20261211T070000Z", "PERCENT-COMPLETE:100"]) == "conflict: Tasks.org set the status to completed")
        #expect(try note("PRIORITY", ["PRIORITY:2"]) == "conflict: Tasks.org set the priority to high")
        #expect(try note("PRIORITY", ["PRIORITY:5"]) == "conflict: Tasks.org set the priority to medium")
        #expect(try note("PRIORITY", ["PRIORITY:9"]) == "conflict: Tasks.org set the priority to low")
        #expect(try note("CATEGORIES", ["CATEGORIES:Work,Home", "CATEGORIES:errands"]) == "conflict: Tasks.org set the tags to errands, home, work")
    }

    @Test func otherFieldsAreNamedAndTheirValuesSaidAsTheyCame() throws {
        #expect(try note("RRULE", ["RRULE:FREQ=WEEKLY;BYDAY=FR"]) == "conflict: Tasks.org set the repetition to FREQ=WEEKLY;BYDAY=FR")
        #expect(
            try note("RELATED-TO", ["RELATED-TO;RELTYPE=PARENT:7813457394758345823", "RELATED-TO;RELTYPE=DEPENDS-ON:42"])
                == "conflict: Tasks.org set the links to 7813457394758345823, 42")
        #expect(try note("X-TODOD-PROJECT", ["X-TODOD-PROJECT:home\\, garden"]) == "conflict: Tasks.org set the project to home, garden")
        #expect(try note("X-TODOD-ESTIMATE", ["X-TODOD-ESTIMATE:PT2H"]) == "conflict: Tasks.org set estimate to PT2H")
        #expect(try note("X-APPLE-SORT-ORDER", ["X-APPLE-SORT-ORDER:-1240418114"]) == "conflict: Tasks.org set X-APPLE-SORT-ORDER to -1240418114")
        #expect(try note("URL", ["URL:https://shop.example.com/oat-milk"]) == "conflict: Tasks.org set URL to https://shop.example.com/oat-milk")
        #expect(try note("BEGIN:VALARM", ["SUMMARY:x"] + tasksOrgAlarm + tasksOrgAlarm) == "conflict: Tasks.org set the alarms to 2 of its own")
    }

    static let products: [(String?, String)] = [
        ("+//IDN tasks.org//android-130904//EN", "Tasks.org"),
        ("+//IDN bitfire.at//DAVx5/4.4.3.2-ose ical4j/3.2.19 (org.tasks)", "Tasks.org"),
        ("-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "Thunderbird"),
        ("+//IDN techbee.at//jtx Board/2.9.1//EN", "jtx Board"),
        ("+//IDN bitfire.at//DAVx5/4.4.3.2-ose ical4j/3.2.19 (at.techbee.jtx)", "jtx Board"),
        ("-//Apple Inc.//iOS 18.1//EN", "Apple Reminders"),
        ("-//todod//todod 0.9.0//EN", "the server"),
        ("-//Nextcloud Tasks v0.16.1", "Nextcloud"),
        ("-//Acme//Widget//EN", "Widget"),
        ("-//python-caldav//caldav//en_DK", "caldav"),
        ("-//Sabre//Sabre VObject 4.5.6//EN", "Sabre VObject 4.5.6"),
        ("Widget", "the server"),
        ("", "the server"),
        (nil, "the server"),
    ]

    @Test(arguments: products)
    func theServersSideIsNamedAfterTheProgramThatWroteIt(productID: String?, name: String) {
        #expect(RemoteName.of(productID: productID) == name)
    }
}
