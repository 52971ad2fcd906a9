extension FieldDeclaration {
    /// The item expires at the end of this day (or at this moment), as
    /// Taskwarrior's `until`: an expired open item leaves the pending views,
    /// and a repeating item makes no occurrence due after it.
    public static let until = FieldDeclaration(
        name: "until", label: "Until", kind: .date, icalendarName: "X-TODOD-UNTIL", isBuiltIn: true)
}
