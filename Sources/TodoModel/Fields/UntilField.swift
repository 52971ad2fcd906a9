import FoundationEssentials

extension FieldDeclaration {
    /// The item expires at the end of this day (or at this moment), as
    /// Taskwarrior's `until`: an expired open item leaves the pending views,
    /// and a repeating item makes no occurrence due after it.
    public static let until = FieldDeclaration(
        name: "until", label: "Until", kind: .date, icalendarName: "X-TODOD-UNTIL", isBuiltIn: true)
}

extension TodoItem {
    /// The `until` date, when it is set and is a date.
    public var until: DueDate? {
        if case .date(let date)? = values[FieldDeclaration.until.name] { date } else { nil }
    }

    /// Not done, and past its `until`: the end of that day, or that moment.
    public func hasExpired(at now: Date, in timeZone: TimeZone) -> Bool {
        guard !isDone, let until else { return false }
        return now >= until.overdueFrom(in: timeZone)
    }
}
