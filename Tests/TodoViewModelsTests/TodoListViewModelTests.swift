import Foundation
import Testing
import TodoModel
import TodoStorage
import TodoViewModels

/// The list view model against real SQLite in memory and a fixed clock: no
/// socket, no disk, no wall time.
@Suite struct TodoListViewModelTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    let store: SQLiteTodoStore
    let viewModel: TodoListViewModel

    init() throws {
        store = try SQLiteTodoStore()
        viewModel = try TodoListViewModel(store: store, now: { Self.now })
    }

    @Test func anEmptyListHasNothingLeft() {
        #expect(viewModel.state.rows.isEmpty)
        #expect(viewModel.state.itemsLeft == "0 items left")
        #expect(viewModel.state.totalCount == 0)
    }

    @Test func theCounterIsWordedForOneAndForMany() throws {
        try viewModel.add(title: "one")
        #expect(viewModel.state.itemsLeft == "1 item left")
        try viewModel.add(title: "two")
        #expect(viewModel.state.itemsLeft == "2 items left")
    }

    @Test func addingTrimsAndShowsTheRow() throws {
        let row = try viewModel.add(title: "  buy milk  ")
        #expect(row.title == "buy milk")
        #expect(viewModel.state.rows == [row])
        #expect(try store.allItems().map(\.createdAt) == [Self.now])
    }

    @Test func aBlankTitleIsRefusedAndNothingIsWritten() throws {
        try viewModel.add(title: "keep me")
        let before = viewModel.state
        #expect(throws: TodoError.blankTitle) { try viewModel.add(title: "  \t ") }
        #expect(viewModel.state == before)
        #expect(try store.allItems().count == 1)
    }

    @Test func markingDoneMovesTheCounts() throws {
        let milk = try viewModel.add(title: "buy milk")
        try viewModel.add(title: "walk the dog")
        let row = try viewModel.setDone(id: TodoID(milk.id), done: true)
        #expect(row.done)
        #expect(viewModel.state.activeCount == 1)
        #expect(viewModel.state.completedCount == 1)
        #expect(viewModel.state.itemsLeft == "1 item left")
        #expect(try store.allItems().first?.completedAt == Self.now)

        try viewModel.setDone(id: TodoID(milk.id), done: false)
        #expect(viewModel.state.itemsLeft == "2 items left")
    }

    @Test func repeatingTheSameStateIsNotAChange() throws {
        let milk = try viewModel.add(title: "buy milk")
        try viewModel.setDone(id: TodoID(milk.id), done: true)
        let version = viewModel.version
        try viewModel.setDone(id: TodoID(milk.id), done: true)
        #expect(viewModel.version == version)
    }

    @Test func removingDropsTheRow() throws {
        let milk = try viewModel.add(title: "buy milk")
        let dog = try viewModel.add(title: "walk the dog")
        try viewModel.remove(id: TodoID(milk.id))
        #expect(viewModel.state.rows == [dog])
        #expect(try store.allItems().map(\.id) == [TodoID(dog.id)])
    }

    @Test func unknownIdsAreReported() throws {
        try viewModel.add(title: "buy milk")
        #expect(throws: TodoError.notFound(TodoID(99))) { try viewModel.setDone(id: TodoID(99), done: true) }
        #expect(throws: TodoError.notFound(TodoID(99))) { try viewModel.remove(id: TodoID(99)) }
    }

    @Test func aNewViewModelShowsWhatTheStoreHolds() throws {
        try viewModel.add(title: "one")
        let two = try viewModel.add(title: "two")
        try viewModel.setDone(id: TodoID(two.id), done: true)
        let reloaded = try TodoListViewModel(store: store, now: { Self.now })
        #expect(reloaded.state == viewModel.state)
    }
}

@Suite struct ItemsLeftTextTests {
    @Test(arguments: [(0, "0 items left"), (1, "1 item left"), (2, "2 items left"), (11, "11 items left")])
    func wording(count: Int, expected: String) {
        #expect(ItemsLeftText.text(forActiveCount: count) == expected)
    }
}

@Suite struct TodoListViewModelStoreFailureTests {
    /// A store that can no longer write (here: really closed) must leave the
    /// view model as it was: what clients see is what is stored.
    @Test func aFailedWriteChangesNothing() throws {
        let store = try SQLiteTodoStore()
        let viewModel = try TodoListViewModel(store: store)
        let milk = try viewModel.add(title: "buy milk")
        let before = viewModel.state
        try store.close()
        #expect(throws: (any Error).self) { try viewModel.add(title: "lost?") }
        #expect(throws: (any Error).self) { try viewModel.setDone(id: TodoID(milk.id), done: true) }
        #expect(throws: (any Error).self) { try viewModel.remove(id: TodoID(milk.id)) }
        #expect(viewModel.state == before)
    }
}
