import FoundationEssentials
import TodoModel

/// Reading a to-do's dates: the due date from `DUE` or a start and a
/// duration, and each date property in any of the forms RFC 5545 allows.
extension ICalendarFormat {
    /// The due date: `DUE`, or else `DTSTART` plus `DURATION` (RFC 5545
    /// §3.6.2). A `DURATION` that cannot be counted (not a duration, no
    /// `DTSTART`, a `DTSTART` that is not a date) is left out and said in
    /// `remarks`, and kept as it came with the start (`ForeignFields`); the
    /// to-do has no due date rather than the file refused (as for a bad
    /// `DUE`): the start is no date todod reads, and the rest is good.
    static func due(_ first: [String: ContentLine], at location: String, timeZone: TimeZone, remarks: inout [String])
        throws(ImportProblem) -> DueDate?
    {
        let duration = first["DURATION"]
        let shown = duration.map { ImportFields.shown($0.value) } ?? ""
        if let due = first["DUE"] {
            if duration != nil { remarks.append("DURATION \(shown) left out: the to-do has a DUE") }
            return try date(due, at: location, timeZone: timeZone, remarks: &remarks)
        }
        guard let duration else { return nil }
        guard let start = first["DTSTART"] else {
            remarks.append("DURATION \(shown) not counted: there is no DTSTART to count it from")
            return nil
        }
        guard let length = ICalendarDuration(duration.value) else {
            remarks.append("DURATION \(shown) not counted: not an iCalendar duration (P1W, P2D, PT1H30M, -P1DT12H)")
            return nil
        }
        let clock: (day: CalendarDay, time: (hour: Int, minute: Int, second: Int)?, zone: TimeZone)
        do {
            clock = try reading(start, at: location, timeZone: timeZone, remarks: &remarks)
        } catch {
            remarks.append("DURATION \(shown) not counted: \(error.message)")
            return nil
        }
        switch length.due(from: clock.day, at: clock.time, in: clock.zone, timeZone: timeZone) {
        case .success(let due): return due
        case .failure(let problem):
            remarks.append("DURATION \(shown) not counted: \(problem.message)")
            return nil
        }
    }

    /// A DATE or DATE-TIME value: a day, or a moment (UTC, in its `TZID`, or
    /// floating in `timeZone`).
    static func date(_ line: ContentLine, at location: String, timeZone: TimeZone, remarks: inout [String])
        throws(ImportProblem) -> DueDate?
    {
        let (day, time, zone) = try reading(line, at: location, timeZone: timeZone, remarks: &remarks)
        guard let time else { return .day(day) }
        return .moment(InterchangeDates.local(day, hour: time.hour, minute: time.minute, second: time.second, in: zone))
    }

    /// A DATE or DATE-TIME value as its clock shows it: the day, the time
    /// (none for a DATE) and the zone of that clock (UTC, its `TZID`, or
    /// `timeZone` when floating). A `TZID` the system does not know (Outlook
    /// writes Windows names such as "W. Europe Standard Time") is read as
    /// todod's own zone, and said in `remarks`.
    static func reading(_ line: ContentLine, at location: String, timeZone: TimeZone, remarks: inout [String])
        throws(ImportProblem) -> (day: CalendarDay, time: (hour: Int, minute: Int, second: Int)?, zone: TimeZone)
    {
        func failure(_ why: String) -> ImportProblem {
            ImportProblem(location: "\(location), line \(line.lineNumber)", message: "\(line.name) \(line.value): \(why)")
        }
        guard let (day, time, zone) = InterchangeDates.dateTimeParts(line.value.trimmingWhitespace()) else {
            throw failure("not an iCalendar date (20240115 or 20240115T093000[Z])")
        }
        guard let time else { return (day, nil, timeZone) }
        if zone == "Z" { return (day, time, utc) }
        var zoneOfTime = timeZone
        if let identifier = line.parameters["TZID"] {
            if let named = TimeZone(identifier: identifier.hasPrefix("/") ? String(identifier.dropFirst()) : identifier) {
                zoneOfTime = named
            } else {
                // Said once, though a DTSTART is read for the start and for a DURATION.
                let remark = "\(line.name) in time zone \(ImportFields.shown(identifier)), which todod does not know: read as local time"
                if !remarks.contains(remark) { remarks.append(remark) }
            }
        }
        return (day, time, zoneOfTime)
    }
}
