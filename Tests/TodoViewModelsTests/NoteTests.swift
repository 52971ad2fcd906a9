import Foundation
import Testing
import TodoModel
import TodoViewModels

/// Notes: lines of text added to an item, numbered from 1 (the oldest) as
/// `todoctl show` lists them and `.removeNote` takes them.
@Suite struct NoteTests {
    let clock = TestClock()
    let viewModel: TodoListViewModel
    let id: TodoID

    init() throws {
        viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
        id = try viewModel.add("plan the trip")
    }

    private var notes: [String] { viewModel.item(id)?.notes.map(\.text) ?? [] }

    @Test func notesAreKeptInOrderAndNumberedFromOne() throws {
        _ = try viewModel.perform(.addNote(id, "  book the train  "))
        clock.advance(by: 60)
        let outcome = try viewModel.perform(.addNote(id, "ask about the dog"))
        #expect(notes == ["book the train", "ask about the dog"])
        #expect(outcome.description == "add a note to “plan the trip”")
        #expect(outcome.row?.noteCount == 2)
        #expect(outcome.row?.fieldsText == "2 notes")
        let details = try viewModel.details(of: id)
        #expect(details.notes.map(\.number) == [1, 2])
        #expect(details.notes.map(\.text) == ["book the train", "ask about the dog"])
        #expect(details.notes.map(\.added) == ["2026-11-22T11:00:00Z", "2026-11-22T11:01:00Z"])
        #expect(details.lines.suffix(3) == ["notes", "  1. 2026-11-22 12:00 (today)  book the train", "  2. 2026-11-22 12:01 (today)  ask about the dog"])
    }

    @Test func removingANoteShiftsTheNumbersOfLaterOnes() throws {
        for text in ["one", "two", "three"] { _ = try viewModel.perform(.addNote(id, text)) }
        let outcome = try viewModel.perform(.removeNote(id, number: 1))
        #expect(outcome.description == "remove note 1 of “plan the trip”")
        #expect(notes == ["two", "three"])
        #expect(try viewModel.details(of: id).notes.map { "\($0.number) \($0.text)" } == ["1 two", "2 three"])
        _ = try viewModel.perform(.removeNote(id, number: 2))
        #expect(notes == ["two"])
    }

    @Test(arguments: [0, 3, -1])
    func aNoteThatIsNotThereIsRefused(number: Int) throws {
        _ = try viewModel.perform(.addNote(id, "one"))
        _ = try viewModel.perform(.addNote(id, "two"))
        let before = viewModel.snapshot
        #expect(throws: TodoError.noteNotFound(id, number: number, count: 2)) {
            try viewModel.perform(.removeNote(id, number: number))
        }
        #expect(viewModel.snapshot == before)
    }

    @Test func anItemWithoutNotesHasNoNoteOne() {
        #expect(throws: TodoError.noteNotFound(id, number: 1, count: 0)) { try viewModel.perform(.removeNote(id, number: 1)) }
        #expect(TodoError.noteNotFound(id, number: 1, count: 0).description.contains("has no notes"))
    }

    @Test(arguments: [("", TodoError.blankNote), (" \t ", .blankNote), ("two\nlines", .noteHasControlCharacters), ("tab\u{7}bell", .noteHasControlCharacters)])
    func blankAndMultiLineNotesAreRefused(text: String, error: TodoError) {
        let before = viewModel.snapshot
        #expect(throws: error) { try viewModel.perform(.addNote(id, text)) }
        #expect(viewModel.snapshot == before)
    }

    @Test func aTooLongNoteIsRefused() {
        let text = String(repeating: "x", count: NoteText.maximumLength + 1)
        #expect(throws: TodoError.noteTooLong(length: NoteText.maximumLength + 1, maximum: NoteText.maximumLength)) {
            try viewModel.perform(.addNote(id, text))
        }
    }

    @Test func notesOnAnItemThatDoesNotExistAreRefused() {
        #expect(throws: TodoError.notFound(TodoID(99))) { try viewModel.perform(.addNote(TodoID(99), "x")) }
        #expect(throws: TodoError.notFound(TodoID(99))) { try viewModel.perform(.removeNote(TodoID(99), number: 1)) }
    }

    @Test func undoRestoresARemovedNoteInItsPlace() throws {
        for text in ["one", "two", "three"] { _ = try viewModel.perform(.addNote(id, text)) }
        let before = try #require(viewModel.item(id))
        _ = try viewModel.perform(.removeNote(id, number: 2))
        _ = try viewModel.perform(.undo)
        #expect(viewModel.item(id) == before)
        _ = try viewModel.perform(.redo)
        #expect(notes == ["one", "three"])
    }

    @Test func aNoteChangeIsAnUpdateOfTheRowInEveryView() throws {
        var main = viewModel.main
        let outcome = try viewModel.perform(.addNote(id, "one"))
        #expect(outcome.changes[.main]?.rowOperations == [.update(index: 0, row: try #require(outcome.row))])
        main.apply(try #require(outcome.changes[.main]))
        #expect(main == viewModel.main)
    }

    @Test func detailsSayWhenEachFieldLastChanged() throws {
        clock.advance(by: 3600)
        _ = try viewModel.perform(.addNote(id, "one"))
        clock.advance(by: 86_400)
        _ = try viewModel.perform(.modify(id, "pri:H +travel"))
        let details = try viewModel.details(of: id)
        #expect(details.changes.map(\.field) == ["tags", "priority", "notes"])
        #expect(details.changes.map(\.at) == ["2026-11-23T12:00:00Z", "2026-11-23T12:00:00Z", "2026-11-22T12:00:00Z"])
        #expect(details.changes.map(\.text) == [
            "tags changed 2026-11-23 13:00 (today)", "priority changed 2026-11-23 13:00 (today)",
            "notes changed 2026-11-22 13:00 (yesterday)",
        ])
        #expect(details.lines.contains("            notes changed 2026-11-22 13:00 (yesterday)"))
    }
}
