/// Which items a list view shows, before its query: the filter of the first
/// protocol version, kept because `all`/`active`/`completed` is what a
/// plain list needs most.
public enum ListFilter: String, Codable, Hashable, Sendable, CaseIterable, WireTyped {
    case all, active, completed
}

/// How a view groups its rows: none, or under a header per project.
public enum ListGrouping: String, Codable, Hashable, Sendable, CaseIterable, WireTyped {
    case project
}
