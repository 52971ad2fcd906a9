extension FieldDeclaration {
    /// The items that must be done before this one, as Taskwarrior's
    /// `depends`. An item with an open dependency is *blocked*; an open item
    /// others depend on is *blocking*. Urgency counts both, the queries
    /// `blocked` and `blocking` find them, a cycle is refused, and removing
    /// an item takes it out of the others' `depends` in the same step
    /// (`ItemLinks`). In iCalendar it is `RELATED-TO;RELTYPE=DEPENDS-ON`
    /// (RFC 9253), in Taskwarrior the `depends` UUIDs.
    public static let depends = FieldDeclaration(
        name: "depends", aliases: ["dep"], label: "Depends on", kind: .items, icalendarName: "RELATED-TO",
        isBuiltIn: true)
}

extension TodoItem {
    /// The ids of the items this one depends on.
    public var depends: [TodoID] { values[FieldDeclaration.depends.name]?.linkedIDs ?? [] }
}
