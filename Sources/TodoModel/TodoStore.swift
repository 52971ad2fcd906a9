import Foundation

/// Where to-do items are kept.
///
/// The view models reach persistence only through this protocol, so they can be
/// exercised without a socket or a disk. Every method is durable when it
/// returns: a caller may acknowledge an edit to a user as soon as the call
/// succeeds.
public protocol TodoStore: Sendable {
    /// Every item, in creation order (ascending id).
    func allItems() throws -> [TodoItem]

    /// Stores a new item with a fresh id that was never used before.
    func insertItem(title: String, createdAt: Date) throws -> TodoItem

    /// Replaces the stored fields of an existing item.
    func updateItem(_ item: TodoItem) throws

    /// Deletes an item. Its id is not handed out again.
    func deleteItem(id: TodoID) throws
}
