extension FieldDeclaration {
    /// The item this one is a subtask of. Views list children under their
    /// parent, sorted within each level; completing a parent completes its
    /// open children and removing one removes them, in the same step
    /// (`ItemLinks`). In iCalendar it is `RELATED-TO;RELTYPE=PARENT`; in
    /// Taskwarrior, which has no subtasks (its own `parent` is a repeating
    /// task's template), the attribute `parenttask`.
    public static let parent = FieldDeclaration(
        name: "parent", label: "Subtask of", kind: .item, taskwarriorName: "parenttask", icalendarName: "RELATED-TO",
        isBuiltIn: true)
}

extension TodoItem {
    /// The id of the item this one is a subtask of.
    public var parent: TodoID? { values[FieldDeclaration.parent.name]?.linkedIDs.first }
}
