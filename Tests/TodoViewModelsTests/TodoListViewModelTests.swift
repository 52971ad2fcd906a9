import Foundation
import Testing
import TodoModel
import TodoViewModels

/// The list view model against real SQLite in memory and a test clock: no
/// socket, no disk, no wall time.
@Suite struct TodoListViewModelTests {
    let clock = TestClock()
    let viewModel: TodoListViewModel

    init() throws {
        viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
    }

    private func titles(_ id: ViewID = .main) -> [String] { viewModel.state(of: id)!.rows.map(\.title) }

    @Test func anEmptyListSaysSo() {
        #expect(viewModel.main.rows.isEmpty)
        #expect(viewModel.main.properties.itemsLeft == "0 items left")
        #expect(viewModel.main.properties.emptyText == "Nothing to do. Add an item with: todoctl add TITLE")
        #expect(!viewModel.main.properties.allDone)
        #expect(!viewModel.main.properties.canUndo)
    }

    @Test func theCounterIsWordedForZeroOneAndMany() throws {
        let one = try viewModel.add("one")
        #expect(viewModel.main.properties.itemsLeft == "1 item left")
        try viewModel.add("two")
        #expect(viewModel.main.properties.itemsLeft == "2 items left")
        _ = try viewModel.perform(.toggleAll)
        #expect(viewModel.main.properties.itemsLeft == "0 items left")
        _ = try viewModel.perform(.setDone(one, false))
        #expect(viewModel.main.properties.itemsLeft == "1 item left")
    }

    @Test func addingTrimsAndRefusingBlankWritesNothing() throws {
        try viewModel.add("  buy milk  ")
        #expect(titles() == ["buy milk"])
        let before = viewModel.main
        #expect(throws: TodoError.blankTitle) { try viewModel.perform(.add(title: " \t ", due: nil)) }
        #expect(viewModel.main == before)
        #expect(viewModel.snapshot.items.count == 1)
        #expect(viewModel.snapshot.history.undoSteps.count == 1)
    }

    @Test func editingTrimsRefusesBlankAndIgnoresTheSameTitle() throws {
        let id = try viewModel.add("milk")
        #expect(try viewModel.perform(.edit(id, title: "  oat milk ")).row?.title == "oat milk")
        #expect(throws: TodoError.blankTitle) { try viewModel.perform(.edit(id, title: "   ")) }
        let unchanged = try viewModel.perform(.edit(id, title: "oat milk"))
        #expect(unchanged.changes.isEmpty)
        #expect(viewModel.snapshot.history.undoSteps.count == 2)  // add, rename: the no-op recorded nothing
    }

    @Test func filtersReactImmediately() throws {
        let milk = try viewModel.add("milk")
        try viewModel.add("bread")
        let active = try viewModel.openView(.own(1), definition: ViewDefinition(filter: .active))
        #expect(active.rows.map(\.title) == ["milk", "bread"])

        let outcome = try viewModel.perform(.setDone(milk, true))
        #expect(titles(.own(1)) == ["bread"])
        #expect(outcome.changes[.own(1)]?.rowOperations == [.remove(index: 0)])

        try viewModel.openView(.own(2), definition: ViewDefinition(filter: .completed))
        #expect(titles(.own(2)) == ["milk"])
        _ = try viewModel.perform(.setDone(milk, false))
        #expect(titles(.own(2)).isEmpty)
        #expect(viewModel.state(of: .own(2))!.properties.emptyText == "No completed items yet.")
    }

    @Test func titleSortIsNaturalIgnoringCaseAndDiacritics() throws {
        for title in ["zebra", "item 10", "Éclair", "apple", "item 2", "eclair", "Apple"] { try viewModel.add(title) }
        try viewModel.openView(.own(1), definition: ViewDefinition(sort: .title))
        // Equal but for case or accents: the plain text decides, so the order is total.
        #expect(titles(.own(1)) == ["Apple", "apple", "eclair", "Éclair", "item 2", "item 10", "zebra"])
    }

    @Test func dueSortPutsUndatedLastAndDaysBeforeLaterMoments() throws {
        let christmas = CalendarDay(year: 2026, month: 12, day: 24)
        try viewModel.add("undated")
        try viewModel.add("christmas eve 18:00", due: .moment(christmas.start(in: clock.timeZone).addingTimeInterval(18 * 3600)))
        try viewModel.add("christmas eve", due: .day(christmas))
        try viewModel.add("tomorrow", due: .day(CalendarDay(year: 2026, month: 11, day: 23)))
        try viewModel.add("also undated")
        try viewModel.openView(.own(1), definition: ViewDefinition(sort: .due))
        #expect(titles(.own(1)) == ["tomorrow", "christmas eve", "christmas eve 18:00", "undated", "also undated"])
    }

    @Test func toggleAllGoesBothWaysAsOneStep() throws {
        let milk = try viewModel.add("milk")
        try viewModel.add("bread")
        _ = try viewModel.perform(.setDone(milk, true))
        _ = try viewModel.perform(.toggleAll)
        #expect(viewModel.main.rows.allSatisfy { $0.done })
        #expect(viewModel.main.properties.allDone)
        #expect(viewModel.main.properties.undoText == "Undo mark all done")
        _ = try viewModel.perform(.toggleAll)
        #expect(viewModel.main.rows.allSatisfy { !$0.done })
        _ = try viewModel.perform(.undo)
        #expect(viewModel.main.rows.allSatisfy { $0.done })
        _ = try viewModel.perform(.undo)
        #expect(viewModel.main.rows.map(\.done) == [true, false])
    }

    @Test func clearCompletedIsOneStepAndUndoRestoresTheSameIds() throws {
        let milk = try viewModel.add("milk")
        try viewModel.add("bread")
        let eggs = try viewModel.add("eggs")
        _ = try viewModel.perform(.setDone(milk, true))
        _ = try viewModel.perform(.setDone(eggs, true))
        #expect(viewModel.main.properties.canClearCompleted)
        _ = try viewModel.perform(.clearCompleted)
        #expect(titles() == ["bread"])
        #expect(!viewModel.main.properties.canClearCompleted)
        #expect(viewModel.main.properties.undoText == "Undo clear 2 completed items")
        _ = try viewModel.perform(.undo)
        #expect(viewModel.main.rows.map(\.id) == [milk.rawValue, 2, eggs.rawValue])
    }

    @Test func undoAndRedoChainAndANewEditClearsRedo() throws {
        let milk = try viewModel.add("milk")
        _ = try viewModel.perform(.edit(milk, title: "oat milk"))
        _ = try viewModel.perform(.delete(milk))
        #expect(viewModel.main.properties.undoText == "Undo delete “oat milk”")
        _ = try viewModel.perform(.undo)
        #expect(viewModel.main.rows.first?.id == milk.rawValue)
        #expect(viewModel.main.rows.first?.title == "oat milk")
        _ = try viewModel.perform(.undo)
        #expect(titles() == ["milk"])
        #expect(viewModel.main.properties.redoText == "Redo rename “milk”")
        _ = try viewModel.perform(.redo)
        #expect(titles() == ["oat milk"])
        try viewModel.add("bread")
        #expect(!viewModel.main.properties.canRedo)
        #expect(throws: TodoError.nothingToRedo) { try viewModel.perform(.redo) }
    }

    @Test func undoingAnAddDoesNotFreeItsId() throws {
        let milk = try viewModel.add("milk")
        _ = try viewModel.perform(.undo)
        #expect(try viewModel.add("bread") != milk)
    }

    @Test func historySurvivesARestart() throws {
        let milk = try viewModel.add("milk")
        _ = try viewModel.perform(.setDone(milk, true))
        _ = try viewModel.perform(.toggleAll)
        let restarted = TodoListViewModel(snapshot: viewModel.snapshot, clock: clock.todoClock)
        #expect(restarted.main == viewModel.main)
        #expect(restarted.main.properties.undoText == "Undo mark all active")
        _ = try restarted.perform(.undo)
        _ = try restarted.perform(.undo)
        _ = try restarted.perform(.undo)
        #expect(restarted.main.rows.isEmpty)
        #expect(throws: TodoError.nothingToUndo) { try restarted.perform(.undo) }
    }

    /// A stored step that cannot be read back is refused by undo with the
    /// reason, and nothing changes: not the rows, not the history.
    @Test func anUnreadableStepIsRefusedAndChangesNothing() throws {
        try viewModel.add("milk")
        var snapshot = viewModel.snapshot
        struct Damaged: Error, CustomStringConvertible { var description: String { "damaged on purpose" } }
        let unreadable = UndoStep(description: "add “bread”") { throw Damaged() }
        snapshot.history = UndoHistory(undoSteps: snapshot.history.undoSteps + [unreadable])
        let restarted = TodoListViewModel(snapshot: snapshot, clock: clock.todoClock)
        #expect(restarted.main.properties.undoText == "Undo add “bread”")
        #expect(throws: TodoError.unreadableStep(description: "add “bread”", reason: "damaged on purpose")) {
            try restarted.perform(.undo)
        }
        #expect(restarted.main.rows.map(\.title) == ["milk"])
        #expect(restarted.main.properties.undoText == "Undo add “bread”")
        // It never passes for a step with no changes: not inverted, not written back.
        #expect(unreadable.inverse.readFailure == "damaged on purpose")
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(unreadable) }
    }

    @Test func aHundredStepsAreKept() throws {
        for index in 0..<(UndoHistory.limit + 10) { try viewModel.add("item \(index)") }
        let restarted = TodoListViewModel(snapshot: viewModel.snapshot, clock: clock.todoClock)
        for _ in 0..<UndoHistory.limit { _ = try restarted.perform(.undo) }
        #expect(restarted.main.rows.count == 10)
        #expect(throws: TodoError.nothingToUndo) { try restarted.perform(.undo) }
    }

    @Test func sharedViewsAreSharedSavedAndRestored() throws {
        try viewModel.add("milk")
        let change = try viewModel.setOptions(of: .main, filter: .completed, sort: .title)
        #expect(change?.changes[.main]?.changedKeys.contains("filter") == true)
        #expect(viewModel.main.rows.isEmpty)
        let restarted = TodoListViewModel(snapshot: viewModel.snapshot, clock: clock.todoClock)
        #expect(restarted.main.properties.filter == .completed)
        #expect(restarted.main.properties.sort == .title)
    }

    @Test func ownViewsAreNotSavedAndDoNotTouchTheSharedOne() throws {
        try viewModel.add("milk")
        try viewModel.openView(.own(7), definition: ViewDefinition(filter: .completed))
        _ = try viewModel.setOptions(of: .own(7), filter: .active, sort: nil)
        #expect(viewModel.main.properties.filter == .all)
        #expect(viewModel.snapshot.viewSettings.isEmpty)
    }

    @Test func rowsWordTheirDates() throws {
        let milk = try viewModel.add("milk", due: .day(CalendarDay(year: 2026, month: 11, day: 23)))
        #expect(viewModel.main.rows[0].createdText == "created today")
        #expect(viewModel.main.rows[0].dueText == "due tomorrow")
        #expect(!viewModel.main.rows[0].overdue)
        clock.advance(by: 2 * 86_400)
        #expect(viewModel.main.rows[0].createdText == "created 2 days ago")
        #expect(viewModel.main.rows[0].dueText == "due yesterday")
        #expect(viewModel.main.rows[0].overdue)
        _ = try viewModel.perform(.setDone(milk, true))
        #expect(!viewModel.main.rows[0].overdue)
    }

    /// A write that fails is taken back: every change after the last
    /// stored one is reverted, newest first, and memory equals the store.
    @Test func revertingFailedWritesRestoresMemory() throws {
        let milk = try viewModel.add("milk")
        try viewModel.openView(.own(1), definition: ViewDefinition(filter: .active, sort: .title))
        let stored = viewModel.snapshot
        let before = viewModel.main
        let ownBefore = viewModel.state(of: .own(1))
        let failed = [
            try viewModel.perform(.add(title: "lost?", due: nil)).applied!,
            try viewModel.perform(.setDone(milk, true)).applied!,
            try viewModel.perform(.undo).applied!,
            try viewModel.perform(transaction: [.add(title: "a", due: nil), .edit(milk, title: "zz")]).applied!,
            try viewModel.setOptions(of: .main, filter: .completed, sort: .due)!.applied!,
        ]
        #expect(viewModel.snapshot != stored)
        for applied in failed.reversed() { viewModel.revert(applied) }
        #expect(viewModel.snapshot == stored)
        #expect(viewModel.main == before)
        #expect(viewModel.state(of: .own(1)) == ownBefore)
        // The next id is the one the store would give: a failed add used none.
        #expect(try viewModel.add("next") == TodoID(milk.rawValue + 1))
    }

    @Test func aRefusedTransactionChangesNothing() throws {
        let milk = try viewModel.add("milk")
        let stored = viewModel.snapshot
        let before = viewModel.main
        #expect(throws: TransactionError(index: 2, error: .notFound(TodoID(99)))) {
            try viewModel.perform(transaction: [.add(title: "a", due: nil), .setDone(milk, true), .delete(TodoID(99))])
        }
        #expect(viewModel.snapshot == stored)
        #expect(viewModel.main == before)
    }

    @Test func addPromptTexts() {
        #expect(viewModel.addPrompt.title == "New To-Do Item")
        #expect(viewModel.addPrompt.message == "Insert the title of the new to-do item:")
        #expect(viewModel.addPrompt.action == "OK")
    }
}

@Suite struct WordingTests {
    let wording = DateWording(timeZone: TimeZone(identifier: "Europe/Berlin")!)
    let today = CalendarDay(year: 2026, month: 11, day: 22)

    @Test(arguments: [
        (0, "today"), (1, "tomorrow"), (-1, "yesterday"), (2, "in 2 days"), (6, "in 6 days"),
        (-3, "3 days ago"), (-6, "6 days ago"), (7, "2026-11-29"), (-7, "2026-11-15"),
    ])
    func days(offset: Int, expected: String) {
        let date = today.start(in: wording.timeZone).addingTimeInterval(Double(offset) * 86_400 + 3600)
        #expect(wording.day(CalendarDay(date, in: wording.timeZone), today: today) == expected)
    }

    @Test func dueMomentsSayTheTimeInTheInjectedZone() {
        let noonUTC = DueDate.moment(Date(timeIntervalSince1970: 1_795_428_000))  // 2026-11-23 10:00 UTC
        #expect(wording.due(noonUTC, now: TestClock.noon) == "due tomorrow at 11:00")
        let tokyo = DateWording(timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        #expect(tokyo.due(noonUTC, now: TestClock.noon) == "due tomorrow at 19:00")
    }

    @Test(arguments: [(0, "0 items left"), (1, "1 item left"), (2, "2 items left"), (11, "11 items left")])
    func itemsLeft(count: Int, expected: String) {
        #expect(ListWording.itemsLeft(activeCount: count) == expected)
    }
}
