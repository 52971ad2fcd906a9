/// Everything a client needs to draw the to-do list, already decided.
///
/// This is the list view model's observable surface: the rows in display
/// order, the counter worded for people, and the counts behind it. A client
/// renders these values as they are; it does not count, word or sort.
public struct TodoListState: Codable, Hashable, Sendable {
    public var rows: [TodoRow]
    /// The counter as a person reads it: "0 items left", "1 item left", "2 items left".
    public var itemsLeft: String
    public var activeCount: Int
    public var completedCount: Int
    public var totalCount: Int

    public init(rows: [TodoRow], itemsLeft: String, activeCount: Int, completedCount: Int, totalCount: Int) {
        self.rows = rows
        self.itemsLeft = itemsLeft
        self.activeCount = activeCount
        self.completedCount = completedCount
        self.totalCount = totalCount
    }
}
