/// What a query reads of an item.
///
/// A protocol rather than `TodoItem` itself, so the view layer can match its
/// own row type (or an item being edited) without copying it, and so queries
/// do not depend on how items are stored.
public protocol QueryableItem {
    var title: String { get }
    /// Tags as written; queries match them ignoring case.
    var tags: Set<String> { get }
    /// A dotted project path such as `home.garden`, or `nil`.
    var project: String? { get }
    var priority: Priority? { get }
    var due: DueDate? { get }
    /// Until when the item is hidden as waiting; waiting ends when this day
    /// begins (or this moment comes).
    var wait: DueDate? { get }
    var isDone: Bool { get }
    var isRecurring: Bool { get }
    /// The declared fields' values, by field name (see `TodoItem.values`).
    var values: [String: FieldValue] { get }
}
