import Foundation
import Testing
import TodoModel

@testable import TodoInterchange

/// RFC 5545 §3.1 lets a writer fold a line at any octet, even inside a
/// character: the bytes are unfolded before they are read as UTF-8.
@Suite struct ICalendarFoldTests {
    /// Two to-dos; the first's SUMMARY ends in `summaryEnd` (bytes, maybe
    /// folded), the second starts on line 7 of the file as it is written.
    static func calendar(summaryEnd: [UInt8]) -> [UInt8] {
        Array("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:price in ".utf8) + summaryEnd
            + Array("\r\nEND:VTODO\r\nBEGIN:VTODO\r\nUID:b\r\nSUMMARY:second\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8)
    }

    static let fold = Array("\r\n ".utf8)

    @Test(arguments: ["é", "€", "𝄞"])
    func aFoldInsideACharacterIsUnfoldedFromTheBytes(character: String) throws {
        let bytes = Array(character.utf8)
        let file = Self.calendar(summaryEnd: [bytes[0]] + Self.fold + bytes.dropFirst() + Array(" today".utf8))
        #expect(String(validating: file, as: UTF8.self) == nil)  // not UTF-8 as it is written
        let text = try #require(InterchangeFormat.ical.text(decoding: file))
        let batch = try InterchangeFormat.ical.read(text, timeZone: .berlin)
        #expect(batch.items.map(\.title) == ["price in \(character) today", "second"])
        // The file keeps its lines: the second to-do is where the file has it.
        #expect(batch.items.map(\.source) == ["to-do 1 (line 2)", "to-do 2 (line 7)"])
    }

    @Test func everyByteOfACharacterMayBeFoldedWithCRLFOrLFAndSpaceOrTab() throws {
        let clef = Array("𝄞".utf8)
        let folded = [clef[0]] + Array("\r\n ".utf8) + [clef[1]] + Array("\n\t".utf8) + [clef[2]] + Array("\r\n\t".utf8) + [clef[3]]
        let file = Self.calendar(summaryEnd: folded + Self.fold + Array("€".utf8))
        let text = try #require(InterchangeFormat.ical.text(decoding: file))
        let batch = try InterchangeFormat.ical.read(text, timeZone: .berlin)
        #expect(batch.items.map(\.title) == ["price in 𝄞€", "second"])
        #expect(batch.items.map(\.source) == ["to-do 1 (line 2)", "to-do 2 (line 10)"])
    }

    @Test func bytesThatAreNotUTF8OnceUnfoldedAreRefused() {
        let notText: [[UInt8]] = [
            Array("a".utf8) + Self.fold + [0xA9],  // a continuation byte after a whole character
            [0xC3] + Self.fold + Array("a".utf8),  // a character cut short
            [0xC3, 0x0D, 0x20, 0xA9],  // CR without LF is no fold
            [0xC3, 0x0D, 0x0A, 0x0A, 0x20, 0xA9],  // nor is an empty line between
            [0xFF],
            [0xE2, 0x82],  // the file ends inside a character
        ]
        for summaryEnd in notText {
            #expect(InterchangeFormat.ical.text(decoding: Self.calendar(summaryEnd: summaryEnd)) == nil, "\(summaryEnd)")
        }
        // Only iCalendar folds: a todo.txt line with the same bytes is not text.
        #expect(InterchangeFormat.todotxt.text(decoding: Array("price in ".utf8) + [0xC3] + Self.fold + [0xA9]) == nil)
        #expect(InterchangeFormat.todotxt.text(decoding: Array("price in é\n".utf8)) == "price in é\n")
    }

    /// One Character may be longer than a line may be (e with 40 accents
    /// is 81 octets): it is folded between its scalars, and read back whole.
    @Test func aCharacterLongerThanALineIsFoldedBetweenItsScalars() throws {
        let long = "e" + String(repeating: "\u{301}", count: 40)
        let line = "SUMMARY:" + long + " and " + long
        let folded = ContentLine.folded(line)
        let physical = folded.utf8.split(separator: 10).map { Array($0) }
        #expect(physical.allSatisfy { $0.count <= 76 }, "\(physical.map(\.count))")  // 75 octets and the CR
        #expect(try ContentLine.parse(folded).map(\.text) == [line])
    }

    /// A fold between characters may still come before a combining mark (é
    /// as e and U+0301), which Swift reads with the space as one Character.
    @Test func aFoldBeforeACombiningMarkIsUnfolded() throws {
        let text = "BEGIN:VTODO\r\nUID:a\r\nSUMMARY:Cafe\r\n \u{301} au lait\r\nEND:VTODO\r\n"
        let item = try #require(try ICalendarFormat.read(text, timeZone: .berlin).items.first)
        #expect(item.title == "Cafe\u{301} au lait")
        #expect(item.title.unicodeScalars.map(\.value).contains(0x301))
    }
}
