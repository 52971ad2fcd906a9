/// The formats todod imports from and exports to. Each is read into
/// `ImportedItem`s and written from `TodoItem`s by its own type in
/// TodoInterchange (`TaskwarriorFormat`, `TodoTxtFormat`, `ICalendarFormat`),
/// so the planning of an import (`ImportPlan`) is the same for all three.
/// The names are here, with the items, so that the protocol and its clients
/// can name a format without linking the parsers.
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
}
