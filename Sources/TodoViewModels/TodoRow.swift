/// One row of the list, ready to display.
///
/// Rows carry the id a user types back (`todoctl done 3`) and texts already
/// worded for the moment they were made; a client interprets nothing.
///
/// The properties are declared in alphabetical order, the order the wire
/// sorts keys in, so a row is encoded as it goes without sorting.
public struct TodoRow: Codable, Hashable, Sendable {
    /// "created today", "created 3 days ago", "created 2026-10-01".
    public var createdText: String
    public var done: Bool
    /// "due tomorrow", "due today at 14:00", or nil (null) when the item has no due date.
    @ExplicitNull public var dueText: String?
    public var id: Int64
    /// Not done and past due.
    public var overdue: Bool
    public var title: String

    public init(id: Int64, title: String, done: Bool, createdText: String, dueText: String? = nil, overdue: Bool = false) {
        self.id = id
        self.title = title
        self.done = done
        self.createdText = createdText
        self.dueText = dueText
        self.overdue = overdue
    }
}
