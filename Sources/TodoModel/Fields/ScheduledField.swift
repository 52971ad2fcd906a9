extension FieldDeclaration {
    /// Not to be started before this day or moment, as Taskwarrior's
    /// `scheduled`. The item stays listed (unlike `wait`); the query `ready`
    /// leaves it out until then. In todo.txt it is the threshold date `t:`;
    /// in iCalendar, DTSTART of a to-do that does not repeat.
    public static let scheduled = FieldDeclaration(
        name: "scheduled", aliases: ["sch"], label: "Scheduled", kind: .date, icalendarName: "DTSTART",
        todoTxtKey: "t", isBuiltIn: true)
}

extension TodoItem {
    /// The `scheduled` date, when it is set and is a date.
    public var scheduled: DueDate? {
        if case .date(let date)? = values[FieldDeclaration.scheduled.name] { date } else { nil }
    }
}
