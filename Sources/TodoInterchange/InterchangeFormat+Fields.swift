import TodoModel

extension InterchangeFormat {
    /// The fields an import in this format sets on an item it updates.
    /// Fields it cannot hold are left as the item has them: re-importing a
    /// todo.txt file does not remove notes added in todod. Every format
    /// holds the declared fields, which an update sets too (`ImportPlan.values`).
    public var carriedFields: Set<ItemField> {
        switch self {
        case .taskwarrior: Set(ItemField.itemFields)
        case .todotxt: [.title, .done, .due, .tags, .project, .priority, .wait, .recurrence]
        case .ical: Set(ItemField.itemFields)
        }
    }
}
