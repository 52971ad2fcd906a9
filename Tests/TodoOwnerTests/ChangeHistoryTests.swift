import Foundation
import TestSupport
import Testing
import TodoProtocol
import TodoViewState
@testable import TodoOwner

/// The resume history measures change sets late (most are never sent
/// again) but must hold what measuring each at once would have held: the
/// longest run of newest transactions within both limits.
@Suite struct ChangeHistoryTests {
    static func entry(_ revision: Int, size: Int) -> ChangeHistory.Entry {
        let body = ChangeBody(
            revision: revision, properties: ["itemsLeftText": .string(String(repeating: "x", count: size))], rows: [], cause: nil)
        return ChangeHistory.Entry(revision: revision, cause: nil, views: ["main": body], bytes: nil)
    }

    /// What an eager history holds after `sizes`: the first revision held.
    static func firstHeldByMeasuringEachAtOnce(_ entries: [ChangeHistory.Entry], revisionLimit: Int, byteLimit: Int) -> Int? {
        var held = 0
        var bytes = 0
        for entry in entries.reversed() {
            let size = entry.measured()
            guard held < revisionLimit, bytes + size <= byteLimit else { break }
            held += 1
            bytes += size
        }
        return held == 0 ? nil : entries[entries.count - held].revision
    }

    @Test(arguments: [1, 2, 3, 4, 5])
    func itHoldsWhatMeasuringEachAtOnceWouldHaveHeld(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let entries = (1...3000).map { Self.entry($0, size: Int.random(in: 0...400, using: &random)) }
        let byteLimit = Int.random(in: 2_000...40_000, using: &random)
        let revisionLimit = Int.random(in: 50...1_000, using: &random)
        var history = ChangeHistory(revisionLimit: revisionLimit, byteLimit: byteLimit, floor: 0)
        for entry in entries { history.append(entry) }
        history.settle()
        let expected = Self.firstHeldByMeasuringEachAtOnce(entries, revisionLimit: revisionLimit, byteLimit: byteLimit)
        #expect(history.entries(after: 0).first?.revision == expected)
        let first = expected ?? 3001
        #expect(history.covers(after: first - 1))
        #expect(!history.covers(after: first - 2))
        #expect(history.entries(after: 0).last?.revision == (expected == nil ? nil : 3000))
    }

    /// What is kept across a restart is measured: an older todod reads its `bytes`.
    @Test func theResumeRecordHoldsMeasuredEntries() throws {
        var history = ChangeHistory(revisionLimit: 100, byteLimit: 1 << 20, floor: 0)
        for revision in 1...10 { history.append(Self.entry(revision, size: 10)) }
        let record = history.record(epoch: "e", revision: 10)
        #expect(record.history.count == 10)
        let restored = ChangeHistory(record: record, revisionLimit: 100, byteLimit: 1 << 20)
        #expect(restored.covers(after: 0))
        #expect(restored.entries(after: 0).allSatisfy { $0.bytes != nil })
    }

    /// A transaction kept as the view model made it is sent, measured and
    /// kept across a restart exactly as its wire form built at once would be.
    @Test func anUnbuiltEntryIsItsWireForm() throws {
        let properties = TodoListProperties(
            filter: .active, sort: .due, itemsLeft: "2 items left", activeCount: 2, completedCount: 1, totalCount: 3,
            allDone: false, canClearCompleted: true, emptyText: nil, canUndo: true, undoText: "Undo add “b”", canRedo: false,
            redoText: nil)
        let change = TodoListChange(
            properties: properties, changedKeys: ["itemsLeft", "activeCount", "undoText"],
            rowOperations: [.insert(index: 0, row: TodoRow(id: 7, title: "b", done: false, createdText: "created today"))])
        let cause = Cause(connection: 3, request: .number(9))
        let body = ChangeBody(revision: 5, change: change, cause: cause)
        var unbuilt = ChangeHistory.Entry(revision: 5, cause: cause, changes: ["main": change])
        let built = ChangeHistory.Entry(revision: 5, cause: cause, views: ["main": body], bytes: nil)

        #expect(unbuilt.view("main") == body)
        #expect(unbuilt.view("other") == nil)
        #expect(unbuilt.rowCount == built.rowCount)
        #expect(unbuilt.measured() == built.measured())
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(unbuilt) == encoder.encode(built))
        #expect(unbuilt.measure() == built.measured())
        #expect(unbuilt.bytes == built.measured())
        #expect(unbuilt.views == ["main": body])
    }
}
