import Foundation
import TodoModel

/// The list view model: owns the in-memory picture of the to-do list and
/// turns user commands into store writes and new display state.
///
/// It does no I/O of its own: the store and the clock are injected, so tests
/// run it in-process with an in-memory store and a fixed time. It is not
/// thread-safe by design; the daemon confines it to one actor, which is the
/// single serial place every mutation goes through.
public final class TodoListViewModel {
    private let store: any TodoStore
    private let now: @Sendable () -> Date
    /// Items in creation order (ascending id).
    private var items: [TodoItem]

    /// The current display state.
    public private(set) var state: TodoListState

    /// Grows by one whenever `state` changes, so an owner can tell a command
    /// that changed something from one that did not (marking a done item done).
    public private(set) var version = 0

    /// Loads the list from `store`.
    public init(store: any TodoStore, now: @escaping @Sendable () -> Date = Date.init) throws {
        self.store = store
        self.now = now
        self.items = try store.allItems()
        self.state = Self.makeState(items)
    }

    public var itemCount: Int { items.count }

    /// Adds an item after validating its title; returns its row.
    @discardableResult
    public func add(title: String) throws -> TodoRow {
        let title = try TodoTitle.validated(title)
        let item = try store.insertItem(title: title, createdAt: now())
        items.append(item)
        refresh()
        return Self.row(item)
    }

    /// Marks an item done or active. Setting the state it already has is not
    /// an error and writes nothing.
    @discardableResult
    public func setDone(id: TodoID, done: Bool) throws -> TodoRow {
        let index = try index(of: id)
        var item = items[index]
        if item.setDone(done, at: now()) {
            try store.updateItem(item)
            items[index] = item
            refresh()
        }
        return Self.row(item)
    }

    /// Deletes an item.
    public func remove(id: TodoID) throws {
        let index = try index(of: id)
        try store.deleteItem(id: id)
        items.remove(at: index)
        refresh()
    }

    private func index(of id: TodoID) throws(TodoError) -> Int {
        // Items are kept sorted by id, so a binary search finds one.
        var low = 0
        var high = items.count
        while low < high {
            let middle = (low + high) / 2
            if items[middle].id < id { low = middle + 1 } else { high = middle }
        }
        guard low < items.count, items[low].id == id else { throw .notFound(id) }
        return low
    }

    private func refresh() {
        state = Self.makeState(items)
        version += 1
    }

    private static func row(_ item: TodoItem) -> TodoRow {
        TodoRow(id: item.id.rawValue, title: item.title, done: item.isDone)
    }

    private static func makeState(_ items: [TodoItem]) -> TodoListState {
        let completed = items.count(where: \.isDone)
        let active = items.count - completed
        return TodoListState(
            rows: items.map(row),
            itemsLeft: ItemsLeftText.text(forActiveCount: active),
            activeCount: active,
            completedCount: completed,
            totalCount: items.count
        )
    }
}
