import Foundation
import Testing

@testable import TodoSync

/// A moment both sides say alike is written back as the server's calendar
/// spelled it: an iPhone's due time in its own zone, not in todod's UTC.
@Suite struct KeptSpellingTests {
    static func todo(_ lines: String...) throws -> TodoComponent {
        try TodoComponent(parsing: (["BEGIN:VTODO", "UID:a"] + lines + ["END:VTODO"]).joined(separator: "\r\n") + "\r\n")
    }

    @Test func theSameMomentKeepsTheServersZone() throws {
        let mine = try Self.todo("SUMMARY:pay rent", "DUE:20261215T170000Z", "DTSTART:20261214T080000Z")
        let theirs = try Self.todo("SUMMARY:pay", "DUE;TZID=Europe/Paris:20261215T180000", "DTSTART;TZID=America/New_York:20261214T030000")
        let kept = mine.keepingDateSpellings(of: theirs)
        #expect(kept.first("DUE")?.line == "DUE;TZID=Europe/Paris:20261215T180000")
        #expect(kept.first("DTSTART")?.line == "DTSTART;TZID=America/New_York:20261214T030000")
        #expect(kept.first("SUMMARY")?.line == "SUMMARY:pay rent")
    }

    /// In summer time too: Paris is two hours ahead in July.
    @Test func summerTimeIsCounted() throws {
        let mine = try Self.todo("DUE:20260715T160000Z")
        let theirs = try Self.todo("DUE;TZID=Europe/Paris:20260715T180000")
        #expect(mine.keepingDateSpellings(of: theirs).first("DUE")?.line == "DUE;TZID=Europe/Paris:20260715T180000")
    }

    /// Another moment, a day, or a zone nobody knows: the list's as it is.
    @Test func anotherMomentIsTheLists() throws {
        let mine = try Self.todo("DUE:20261215T180000Z")
        for theirs in ["DUE;TZID=Europe/Paris:20261215T180000", "DUE;VALUE=DATE:20261215", "DUE;TZID=Nowhere/Else:20261215T180000"] {
            #expect(mine.keepingDateSpellings(of: try Self.todo(theirs)).first("DUE")?.line == "DUE:20261215T180000Z", "\(theirs)")
        }
        #expect(mine.keepingDateSpellings(of: nil) == mine)
    }
}
