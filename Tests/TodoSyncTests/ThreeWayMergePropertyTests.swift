import Foundation
import TestSupport
import Testing

@testable import TodoSync

/// The merge's promises over random to-dos (seeded, so a failure replays):
/// base, todod's side and the server's each built from a pool of values per
/// field, some of them one meaning in two spellings. Whatever the values,
/// each field of the result is todod's or the server's, as that side wrote
/// it; a field both sides mean alike is todod's; a field changed on one
/// side only is that side's; and the conflicts are exactly the fields both
/// changed to different meanings (all that differ when there is no base),
/// won by the later side, each a note.
@Suite struct ThreeWayMergePropertyTests {
    /// One value of a field: its lines (none when the field is absent) and
    /// what they mean (nil: nothing), the same for two spellings of one thing.
    struct Choice {
        var lines: [String]
        var meaning: String?
        init(_ lines: [String], _ meaning: String?) {
            self.lines = lines
            self.meaning = meaning
        }
    }

    static let firstAlarm = ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:PT0S", "DESCRIPTION:Default Tasks.org description", "END:VALARM"]
    static let secondAlarm = ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;VALUE=DURATION;RELATED=START:-PT15M", "END:VALARM"]

    static let pools: [(field: String, choices: [Choice])] = [
        ("SUMMARY", [.init([], nil), .init(["SUMMARY:Buy milk"], "milk"), .init(["SUMMARY:Buy oat milk"], "oat"), .init(["SUMMARY:Buy milk\\, eggs"], "eggs")]),
        (
            "DUE",
            [
                .init([], nil), .init(["DUE;VALUE=DATE:20261211"], "11th"), .init(["DUE;VALUE=DATE:20261212"], "12th"),
                .init(["DUE;TZID=Europe/Berlin:20261212T093000"], "12th 09:30"), .init(["due;tzid=Europe/Berlin:20261212T093000"], "12th 09:30"),
            ]
        ),
        (
            "PRIORITY",
            [
                .init([], nil), .init(["PRIORITY:0"], nil), .init(["PRIORITY:1"], "high"), .init(["PRIORITY:2"], "high"),
                .init(["PRIORITY:5"], "medium"), .init(["PRIORITY:9"], "low"),
            ]
        ),
        (
            "CATEGORIES",
            [
                .init([], nil), .init(["CATEGORIES:Work,Home"], "home+work"), .init(["CATEGORIES:home,work"], "home+work"),
                .init(["CATEGORIES:work", "CATEGORIES:HOME"], "home+work"), .init(["CATEGORIES:work"], "work"),
            ]
        ),
        (
            "STATUS",
            [
                .init([], nil), .init(["STATUS:NEEDS-ACTION"], nil), .init(["STATUS:COMPLETED", "COMPLETED:20261211T070000Z"], "done"),
                .init(["COMPLETED:20261210T090000Z", "PERCENT-COMPLETE:100"], "done"),
                .init(["STATUS:IN-PROCESS", "PERCENT-COMPLETE:50"], "in process 50%"),
                .init(["STATUS:IN-PROCESS", "PERCENT-COMPLETE:60"], "in process 60%"),
                .init(["PERCENT-COMPLETE:40"], "40%"),
            ]
        ),
        (
            "DESCRIPTION",
            [
                .init([], nil), .init(["DESCRIPTION:call back"], "call back"),
                .init(["DESCRIPTION:call back", "X-TODOD-NOTE;X-ADDED=20261201T080000Z:call back"], "call back"),
                .init(["DESCRIPTION:call back\\nask for Ann"], "call back|ask for Ann"),
                .init(["X-TODOD-NOTE;X-ADDED=20261201T080000Z:call back"], nil),
            ]
        ),
        (
            "RRULE",
            [
                .init([], nil), .init(["RRULE:FREQ=WEEKLY;BYDAY=FR"], "weekly"),
                .init(["RRULE:FREQ=WEEKLY;BYDAY=FR", "X-TODOD-RECURRENCE:every friday from completion"], "weekly from completion"),
                .init(["RRULE:FREQ=MONTHLY"], "monthly"),
            ]
        ),
        (
            "RELATED-TO",
            [
                .init([], nil), .init(["RELATED-TO;RELTYPE=PARENT:7813457394758345823"], "parent"),
                .init(["RELATED-TO;RELTYPE=PARENT:5588129374659911234"], "other parent"),
                .init(["RELATED-TO;RELTYPE=PARENT:7813457394758345823", "RELATED-TO;RELTYPE=DEPENDS-ON:42"], "parent+42"),
                .init(["RELATED-TO;RELTYPE=DEPENDS-ON:42", "RELATED-TO;RELTYPE=PARENT:7813457394758345823"], "parent+42"),
            ]
        ),
        ("X-APPLE-SORT-ORDER", [.init([], nil), .init(["X-APPLE-SORT-ORDER:1"], "1"), .init(["X-APPLE-SORT-ORDER:2"], "2")]),
        ("URL", [.init([], nil), .init(["URL:https://shop.example.com/oat-milk"], "shop")]),
        (
            "BEGIN:VALARM",
            [
                .init([], nil), .init(firstAlarm, "first"), .init(secondAlarm, "second"), .init(firstAlarm + secondAlarm, "both"),
                .init(secondAlarm + firstAlarm, "both"),
            ]
        ),
    ]

    static let stamps: [String?] = [nil, "20261210T090000Z", "20261211T081500Z", "20261211T100000Z"]

    /// A to-do of one choice per field (indices into `pools`), its fields in a random order.
    static func build(_ choices: [Int], stamp: String?, sequence: Int?, using random: inout SeededRandom) throws -> TodoComponent {
        var properties: [String] = []
        var alarms: [String] = []
        for index in pools.indices.shuffled(using: &random) {
            let choice = pools[index].choices[choices[index]]
            if pools[index].field.hasPrefix("BEGIN:") { alarms = choice.lines } else { properties += choice.lines }
        }
        var head = ["UID:6285093141925946721"]
        if let stamp { head.append("LAST-MODIFIED:" + stamp) }
        if let sequence { head.append("SEQUENCE:\(sequence)") }
        return try todo(head + properties + alarms)
    }

    /// The pool's meanings are the merge's: two choices mean the same exactly when `SyncField` says so.
    @Test func thePoolsMeaningsAreTheFieldsValues() throws {
        for (field, choices) in Self.pools {
            for first in choices {
                for second in choices {
                    let one = SyncField.value(of: field, in: try todo(["UID:a"] + first.lines))
                    let other = SyncField.value(of: field, in: try todo(["UID:a"] + second.lines))
                    #expect((one == other) == (first.meaning == second.meaning), "\(first.lines) and \(second.lines)")
                }
            }
        }
    }

    @Test(arguments: 0..<8 as Range<UInt64>)
    func eachFieldIsOneSidesAndTheConflictsAreTheFieldsBothChanged(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for trial in 0..<250 {
            func pick(near base: [Int]) -> [Int] {
                base.indices.map { Bool.random(using: &random) ? base[$0] : Int.random(in: 0..<Self.pools[$0].choices.count, using: &random) }
            }
            let baseChoices = Self.pools.map { Int.random(in: 0..<$0.choices.count, using: &random) }
            let localChoices = pick(near: baseChoices)
            let remoteChoices = pick(near: baseChoices)
            let localStamp = Self.stamps.randomElement(using: &random)!
            let remoteStamp = Self.stamps.randomElement(using: &random)!
            let localSequence = Bool.random(using: &random) ? Int.random(in: 0...3, using: &random) : nil
            let remoteSequence = Bool.random(using: &random) ? Int.random(in: 0...3, using: &random) : nil
            let hasBase = Int.random(in: 0..<5, using: &random) > 0
            let base = try Self.build(baseChoices, stamp: "20261201T090000Z", sequence: 0, using: &random)
            let local = try Self.build(localChoices, stamp: localStamp, sequence: localSequence, using: &random)
            let remote = try Self.build(remoteChoices, stamp: remoteStamp, sequence: remoteSequence, using: &random)
            let result = merge(base: hasBase ? base : nil, local: local, remote: remote)
            let context: Comment = "seed \(seed), trial \(trial)"

            let remoteIsLater = (remoteStamp ?? "") > (localStamp ?? "")
            var expectedConflicts: [String] = []
            var expectedFromRemote: [String] = []
            var expectedFromLocal: [String] = []
            var takesRemote: [String: Bool] = [:]
            for (index, pool) in Self.pools.enumerated() {
                let meanings = [baseChoices, localChoices, remoteChoices].map { pool.choices[$0[index]].meaning }
                var (baseMeaning, localMeaning, remoteMeaning) = (meanings[0], meanings[1], meanings[2])
                // With no base, a field one side lacks is the other side's
                // to give only when no person sees it; any other difference
                // is a conflict: which side changed it cannot be known.
                let agreed = hasBase || ((localMeaning == nil || remoteMeaning == nil) && !SyncField.isShown(pool.field))
                if !hasBase { baseMeaning = nil }
                if localMeaning == remoteMeaning {
                    takesRemote[pool.field] = false
                } else if agreed, baseMeaning == localMeaning {
                    takesRemote[pool.field] = true
                    expectedFromRemote.append(pool.field)
                } else if agreed, baseMeaning == remoteMeaning {
                    takesRemote[pool.field] = false
                    expectedFromLocal.append(pool.field)
                } else {
                    takesRemote[pool.field] = remoteIsLater
                    expectedConflicts.append(pool.field)
                    if remoteIsLater { expectedFromRemote.append(pool.field) } else { expectedFromLocal.append(pool.field) }
                }
            }
            #expect(Set(result.conflicts.map(\.field)) == Set(expectedConflicts), context)
            #expect(result.conflicts.count == expectedConflicts.count, context)
            #expect(result.conflicts.allSatisfy { $0.localLost == remoteIsLater }, context)
            #expect(result.fromRemote == expectedFromRemote.sorted(), context)
            #expect(Set(result.fromLocal) == Set(expectedFromLocal), context)
            #expect(result.fromLocal.count == expectedFromLocal.count, context)

            // Each field as the side taken wrote it.
            for (index, pool) in Self.pools.enumerated() {
                let winner = takesRemote[pool.field]! ? remote : local
                let choice = pool.choices[(takesRemote[pool.field]! ? remoteChoices : localChoices)[index]]
                if pool.field == "BEGIN:VALARM" {
                    #expect(result.todo.components == winner.components, context)
                } else if pool.field == "DESCRIPTION", !result.conflicts.isEmpty {
                    // The notes: the side's, then one for each conflict.
                    let text = choice.meaning.map { $0.split(separator: "|").map(String.init) } ?? []
                    #expect(SyncField.value(of: pool.field, in: result.todo) == text + result.conflicts.map(\.note), context)
                    let ownNotes = { (todo: TodoComponent) in todo.properties.count { $0.name == "X-TODOD-NOTE" } }
                    #expect(ownNotes(result.todo) == ownNotes(winner) + result.conflicts.count, context)
                } else {
                    #expect(lines(of: pool.field, in: result.todo) == lines(of: pool.field, in: winner), "\(pool.field): \(context)")
                    #expect(lines(of: pool.field, in: result.todo) == choice.lines, "\(pool.field): \(context)")
                }
            }

            // What the server alone has comes in the server's order (the notes
            // but for the conflicts' added to them).
            let serverOnly = Set(
                Self.pools.map(\.field).filter {
                    takesRemote[$0]! && lines(of: $0, in: local).isEmpty && ($0 != "DESCRIPTION" || result.conflicts.isEmpty)
                })
            let inOrder = { (todo: TodoComponent) in
                todo.properties.filter { SyncField.of($0.name).map(serverOnly.contains) ?? false }.map(\.line)
            }
            #expect(inOrder(result.todo) == inOrder(remote), context)

            // The stamps: the later change, now, the higher sequence.
            let latest = [localStamp, remoteStamp].compactMap { $0 }.max() ?? "20261212T120000Z"
            #expect(result.todo.properties.filter { $0.name == "LAST-MODIFIED" }.map(\.value) == [latest], context)
            #expect(result.todo.properties.filter { $0.name == "DTSTAMP" }.map(\.value) == ["20261212T120000Z"], context)
            let sequence = [localSequence, remoteSequence].compactMap { $0 }.max()
            #expect(result.todo.properties.filter { $0.name == "SEQUENCE" }.map(\.value) == (sequence.map { ["\($0)"] } ?? []), context)
            #expect(result.todo.uid == "6285093141925946721", context)

            // And it is written and read back as it is.
            let resource = CalendarResource(todo: result.todo)
            #expect(try CalendarResource(parsing: resource.text(productID: "-//todod//todod 0.9.0//EN")).todo == result.todo, context)
        }
    }

    /// Nothing changed anywhere, nothing is taken, whatever is written.
    @Test(arguments: 0..<4 as Range<UInt64>)
    func aToDoMergedWithItselfIsItself(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<100 {
            let choices = Self.pools.map { Int.random(in: 0..<$0.choices.count, using: &random) }
            let todo = try Self.build(choices, stamp: "20261211T081500Z", sequence: 2, using: &random)
            let result = merge(base: todo, local: todo, remote: todo)
            #expect(result.conflicts.isEmpty && result.fromLocal.isEmpty && result.fromRemote.isEmpty)
            #expect(result.todo == todo.with("DTSTAMP:20261212T120000Z"))
            #expect(merge(base: nil, local: todo, remote: todo).conflicts.isEmpty)
        }
    }
}
