/// Which items a list view shows.
public enum ListFilter: String, Codable, Hashable, Sendable, CaseIterable, WireTyped {
    case all, active, completed
}

/// In which order a list view shows its rows.
public enum ListSort: String, Codable, Hashable, Sendable, CaseIterable, WireTyped {
    /// Creation order (oldest first).
    case created
    /// Title A→Z, ignoring case and diacritics ("école" sorts with "ecole").
    case title
    /// Due date, soonest first; undated items last.
    case due
}
