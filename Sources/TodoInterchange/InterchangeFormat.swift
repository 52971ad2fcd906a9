import TodoModel

/// The formats todod imports from and exports to. Each is read into
/// `ImportedItem`s and written from `TodoItem`s by its own type
/// (`TaskwarriorFormat`, `TodoTxtFormat`, `ICalendarFormat`), so the
/// planning of an import (`ImportPlan`) is the same for all three.
public enum InterchangeFormat: String, CaseIterable, Hashable, Sendable, Codable {
    /// Taskwarrior's JSON, as `task export` prints it (2.6 and 3.x).
    case taskwarrior
    /// One task per line, as todo.txt and `todo.sh` write it.
    case todotxt
    /// iCalendar (RFC 5545) to-dos: `VTODO` components in a `VCALENDAR`.
    case ical

    /// How the format is named in reports: "Taskwarrior".
    public var displayName: String {
        switch self {
        case .taskwarrior: "Taskwarrior"
        case .todotxt: "todo.txt"
        case .ical: "iCalendar"
        }
    }

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
