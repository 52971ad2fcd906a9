import TodoModel

extension ForeignFields {
    /// The names of what is kept for calendars: each property once, each
    /// component (`VALARM`) as often as it comes, in order.
    public var icalendarNames: [String] { ICalendarFormat.keptNames(icalendar) }
}
