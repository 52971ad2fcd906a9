import Foundation
import Testing
import TodoModel
import TodoViewModels

@testable import TodoPostgres

/// A write as the change log keeps it, read back: everything it held, with
/// a recorded step's changes read only when the step needs them.
@Suite struct StoredWriteTests {
    let item = TodoItem(id: TodoID(7), title: "buy milk", createdAt: Date(timeIntervalSince1970: 1_795_345_200))

    private func recordedAdd(origin: String?) -> ListWrite {
        var step = UndoStep(description: "add “buy milk”", changes: [ItemChange(before: nil, after: item)])
        step.origin = origin
        return ListWrite(changes: step.changes, historyChange: .record(step))
    }

    @Test func aRecordedStepComesBackWithItsDescriptionOriginAndChanges() throws {
        let written = recordedAdd(origin: "laptop")
        let read = try StoredWrite.write(fromJSON: try StoredWrite.json(written))
        #expect(read.changes == written.changes)
        guard case .record(let step)? = read.historyChange else {
            Issue.record("no recorded step: \(String(describing: read.historyChange))")
            return
        }
        #expect(step.description == "add “buy milk”")
        #expect(step.origin == "laptop")
        #expect(step.readFailure == nil)
        #expect(step.changes == [ItemChange(before: nil, after: item)])
    }

    @Test func undoAndRedoMovesComeBackAsTheyWere() throws {
        let undo = try StoredWrite.write(fromJSON: try StoredWrite.json(ListWrite(changes: [], historyChange: .undo)))
        let redo = try StoredWrite.write(fromJSON: try StoredWrite.json(ListWrite(changes: [], historyChange: .redo)))
        #expect({ if case .undo? = undo.historyChange { true } else { false } }())
        #expect({ if case .redo? = redo.historyChange { true } else { false } }())
    }

    @Test func aStepWhoseChangesCannotBeReadSaysSoWhenUndoneAndTheRestOfTheWriteIsKept() throws {
        // The record's changes are damaged; the write's own are fine.
        var text = try StoredWrite.json(recordedAdd(origin: nil))
        let record = try #require(text.range(of: #""record":{"changes":["#))
        text.replaceSubrange(record, with: #""record":{"changes":[{"after":{"id":"seven"}},"#)
        let read = try StoredWrite.write(fromJSON: text)
        #expect(read.changes == [ItemChange(before: nil, after: item)])
        guard case .record(let step)? = read.historyChange else {
            Issue.record("no recorded step")
            return
        }
        #expect(step.description == "add “buy milk”")
        #expect(step.changes.isEmpty)
        #expect(step.readFailure != nil)
    }
}
