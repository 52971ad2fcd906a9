import Foundation
import TestSupport
import Testing
import TodoModel

@testable import TodoInterchange

/// Files other programs wrote, mutated at random (seeded, so a failure
/// replays): every reader either refuses the file with an `ImportProblem` or
/// reads it; what todod then writes it reads back, with the same titles; and
/// from todod's second writing on, reading and writing changes nothing. (The
/// first may: a property a file repeats, the first copy unreadable, is kept
/// as it came, and read as todod's own once it is the only one.) A crash or a
/// trap fails the run. The files unmutated keep every foreign property.
@Suite struct InterchangeFuzzTests {
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        BEGIN:VTODO\r
        UID:trip@example.com\r
        SUMMARY:Plan the trip\r
        DUE;TZID=Europe/Lisbon:20300301T170000\r
        RRULE:FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1\r
        CATEGORIES:travel,home\r
        PRIORITY:2\r
        URL:https://example.com/trip\r
        X-ODD;X-WHY="a;b":kept\\, as it came\r
        DESCRIPTION:first\\nsecond\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:-PT15M\r
        END:VALARM\r
        END:VTODO\r
        BEGIN:VTODO\r
        UID:b\r
        SUMMARY:Done\r
        STATUS:COMPLETED\r
        COMPLETED:20261101T100000Z\r
        DTSTART:20261101T090000Z\r
        DURATION:PT1H\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    static let taskwarrior = """
        [{"uuid":"2648fcb6-44d4-403b-b1ba-b6fd2a7f8379","description":"Pay rent","status":"recurring","entry":"20261101T080000Z",\
        "due":"20261201T000000Z","recur":"monthly","mask":"-","estimate":3.5,"depends":["a57c5020-743a-4bf1-baf3-1e320dce8625"]},
        {"uuid":"a57c5020-743a-4bf1-baf3-1e320dce8625","description":"Write report","status":"pending","entry":"20261120T080000Z",\
        "scheduled":"20261201T230000Z","tags":["work"],"annotations":[{"entry":"20261121T080000Z","description":"draft"}],\
        "client":{"name":"Acme","n":[1,2.5,null,true]}}]
        """

    static let ff4 = """
        [description:"buy milk" entry:"1700000000" modified:"1700000100" project:"home" status:"pending" tags:"a,b" uuid:"00000000-0000-4000-8000-000000000001" annotation_1700000050:"a \\"quoted\\" note" due:"1700086400" estimate:"3"]
        [depends:"00000000-0000-4000-8000-000000000001" description:"call &open;mum&close;" entry:"1700000000" status:"completed" end:"1700000500" uuid:"00000000-0000-4000-8000-000000000002"]

        """

    /// A few bytes changed, dropped, doubled or swapped for ones that trip readers.
    static func mutated(_ text: String, _ random: inout SeededRandom) -> String {
        var bytes = Array(text.utf8)
        let tricky: [[UInt8]] = [
            [0], [13], [10], [0x20], [0x3A], [0x3B], [0x22], [0x5C], [0x2C], [0x5B], [0x5D], [0x7B], [0x7D],
            Array("BEGIN:VALARM\r\n".utf8), Array("END:VTODO\r\n".utf8), Array("\r\n ".utf8), Array("é".utf8), [0xC3], [0xFF],
            Array("99999999999999999999".utf8), Array("1e400".utf8), Array("-".utf8), Array("T".utf8), Array("Z".utf8),
        ]
        for _ in 0..<Int.random(in: 1...6, using: &random) where !bytes.isEmpty {
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: bytes.remove(at: at)
            case 1: bytes.insert(contentsOf: tricky.randomElement(using: &random)!, at: at)
            case 2: bytes.replaceSubrange(at..<min(bytes.count, at + 3), with: tricky.randomElement(using: &random)!)
            default:
                let end = min(bytes.count, at + Int.random(in: 1...40, using: &random))
                bytes.insert(contentsOf: bytes[at..<end], at: at)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` read and written again, or nil when it is refused.
    static func rewritten(_ text: String, _ format: InterchangeFormat) -> (String, [ImportedItem])? {
        guard let batch = try? format.read(text, timeZone: .berlin) else { return nil }
        let items = batch.items.enumerated().map { index, imported in
            ImportPlan.added(imported, id: TodoID(Int64(index + 1)), externalID: nil, at: noon, timeZone: .berlin)
        }
        let document = ExportDocument(format: format, listID: listID, timeZone: .berlin, now: noon, version: "fuzz")
        return (document.text(of: items, itemsBefore: 0, isLast: true), batch.items)
    }

    /// Read `text`; when read, write it, and read and write that twice more.
    static func roundTrip(_ text: String, _ format: InterchangeFormat, keepsEveryForeignProperty: Bool = false) {
        guard let (first, read) = rewritten(text, format) else { return }  // refused: fine
        guard let (second, again) = rewritten(first, format) else {
            Issue.record("what was written cannot be read back:\n\(first.debugDescription)\nfrom\n\(text.debugDescription)")
            return
        }
        #expect(again.map(\.title) == read.map(\.title), "\(text.debugDescription)")
        if format == .ical { checkStructure(first, from: text) }
        if keepsEveryForeignProperty { #expect(again.map(\.foreign) == read.map(\.foreign)) }
        #expect(
            rewritten(second, format)?.0 == second,
            "not settled after two round trips:\n\(second.debugDescription)\nfrom\n\(text.debugDescription)")
    }

    /// What todod writes nests (every BEGIN has its END, in order), and each
    /// to-do has one of each property todod writes itself (a DTSTART when it
    /// repeats); a file's own duplicates are kept as they came.
    static func checkStructure(_ written: String, from text: String) {
        var open: [String] = []
        var counts: [String: Int] = [:]
        for line in written.components(separatedBy: "\r\n") where !line.hasPrefix(" ") && !line.isEmpty {
            let name = String(line.prefix { $0 != ";" && $0 != ":" }).uppercased()
            let value = String(line.drop { $0 != ":" }.dropFirst()).uppercased()
            if name == "BEGIN" {
                open.append(value)
                if value == "VTODO" { counts = [:] }
            } else if name == "END" {
                if value == "VTODO", counts["RRULE", default: 0] > 0 {
                    #expect(counts["DTSTART", default: 0] <= 1, "two DTSTART with an RRULE:\n\(written.debugDescription)\nfrom\n\(text.debugDescription)")
                }
                #expect(open.last == value, "END:\(value) closes \(open.last ?? "nothing"):\n\(written.debugDescription)\nfrom\n\(text.debugDescription)")
                if !open.isEmpty { open.removeLast() }
            } else if open.last == "VTODO" {
                counts[name, default: 0] += 1
                if ["STATUS", "DUE", "UID", "SUMMARY", "DTSTAMP"].contains(name) {
                    #expect(counts[name] == 1, "two \(name):\n\(written.debugDescription)\nfrom\n\(text.debugDescription)")
                }
            }
        }
        #expect(open.isEmpty, "left open: \(open)")
    }

    @Test(arguments: 1...16)
    func mutatedCalendarsAreReadOrRefused(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        Self.roundTrip(Self.calendar, .ical, keepsEveryForeignProperty: true)
        for _ in 0..<500 { Self.roundTrip(Self.mutated(Self.calendar, &random), .ical) }
    }

    @Test(arguments: 1...16)
    func mutatedTaskwarriorExportsAreReadOrRefused(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        Self.roundTrip(Self.taskwarrior, .taskwarrior, keepsEveryForeignProperty: true)
        for _ in 0..<500 { Self.roundTrip(Self.mutated(Self.taskwarrior, &random), .taskwarrior) }
    }

    @Test(arguments: 1...16)
    func mutatedDataDirectoriesAreReadOrRefused(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        for _ in 0..<500 {
            let text = Self.mutated(Self.ff4, &random)
            guard let directory = try? TaskwarriorDataDirectory(files: [.init(name: "pending.data", bytes: Array(text.utf8))])
            else { continue }
            Self.roundTrip(directory.exportText, .taskwarrior)
        }
    }
}
