import FoundationEssentials
import TodoModel

/// Declared fields in iCalendar: each is its `icalendarName` property, or
/// todod's own `X-TODOD-NAME` (always for an orphan, and for a `scheduled`
/// that cannot be `DTSTART`), read and written by its field's kind.
extension ICalendarFormat {
    /// The declared fields' values, and the names of the properties they
    /// were read from (which are not kept as well). todod's own
    /// `X-TODOD-NAME` comes first; a field's other property (`DTSTART` for
    /// `scheduled`) is read when there is none, but `DTSTART` not for a
    /// repeating to-do, whose start is its due date. A value that does not
    /// fit is said, and its property kept as it came.
    static func values(
        _ first: [String: ContentLine], fields: FieldCatalog, repeats: Bool, at location: String, timeZone: TimeZone,
        remarks: inout [String]
    ) throws(ImportProblem) -> ([String: FieldValue], Set<String>) {
        var values: [String: FieldValue] = [:]
        var names: Set<String> = []
        // Links are RELATED-TO lines, read on their own (`links(_:fields:at:)`).
        for field in fields.declarations where field.kind != .item && field.kind != .items {
            let own = ownProperty(field.name)
            var candidates = [own]
            if field.icalendarName != own && !(field.icalendarName == "DTSTART" && repeats) {
                candidates.append(field.icalendarName)
            }
            guard let line = candidates.lazy.filter({ !modelledProperties.contains($0) }).compactMap({ first[$0] }).first else {
                continue
            }
            if let value = try value(line, of: field, at: location, timeZone: timeZone, remarks: &remarks) {
                values[field.name] = value
                names.insert(line.name)
            } else if !line.value.isEmpty {
                let what = "\(line.name) \(ImportFields.shown(line.value))"
                remarks.append(FieldValueText.notUsed(what, field, date: "an iCalendar date (20240115 or 20240115T093000[Z])"))
            }
        }
        return (values, names)
    }

    /// todod's own property for the field `name`, and an orphan's: `X-TODOD-ESTIMATE`.
    static func ownProperty(_ name: String) -> String { "X-TODOD-" + name.uppercased() }

    /// The value of `field` in `line`, or nil when it is not one: a DATE or
    /// DATE-TIME as `DUE` is read, a number, an ISO 8601 duration, a text.
    private static func value(
        _ line: ContentLine, of field: FieldDeclaration, at location: String, timeZone: TimeZone, remarks: inout [String]
    ) throws(ImportProblem) -> FieldValue? {
        switch field.kind {
        case .date:
            return (try? date(line, at: location, timeZone: timeZone, remarks: &remarks)).map(FieldValue.date)
        case .number:
            return NumberText.number(line.value.trimmingWhitespace()).map(FieldValue.number)
        case .duration:
            return FieldValueText.duration(line.value.trimmingWhitespace()).map(FieldValue.duration)
        case .item, .items:
            return nil
        case .text:
            let text = ContentLine.unescaped(line.value)
            guard !text.isEmpty, FieldValueText.allows(text, in: field) else { return nil }
            return .text(try ImportFields.valueText(text, of: line.name, at: "\(location), line \(line.lineNumber)"))
        }
    }

    /// The content lines of `item`'s declared fields (dates written by
    /// `dateValue`, as DUE is), in the catalog's order, then its orphans;
    /// not its links, which are `RELATED-TO` lines (`linkLines`).
    static func declaredFieldLines(
        of item: TodoItem, fields: FieldCatalog, timeZone: TimeZone, dateValue: (DueDate) -> String
    ) -> [String] {
        var lines: [String] = []
        for (name, field, fieldValue) in fields.ordered(item.values) {
            var property = field?.icalendarName ?? ownProperty(name)
            // A start that cannot be DTSTART is said in todod's own property.
            if property == "DTSTART" && !isStart(fieldValue, of: item, timeZone: timeZone) { property = ownProperty(name) }
            guard !modelledProperties.contains(property) else { continue }
            switch fieldValue {
            case .date(let date): lines.append(property + dateValue(date))
            case .number(let number): lines.append(property + ":" + NumberText.text(of: number))
            case .duration(let seconds): lines.append(property + ";VALUE=DURATION:" + DurationText.iso8601(seconds: seconds))
            case .text(let text): lines.append(property + ":" + ContentLine.escaped(text))
            case .items: continue
            }
        }
        return lines
    }

    /// Whether `value` can be `item`'s `DTSTART`: a date, of a to-do that
    /// does not repeat (a repeating one starts at its due date, which its
    /// RRULE counts from), no later than its due date (RFC 5545 §3.8.2.3):
    /// days compared by days, times by instants (a time beside a day by its
    /// day), as `startFits` compares a kept `DTSTART`.
    private static func isStart(_ value: FieldValue, of item: TodoItem, timeZone: TimeZone) -> Bool {
        guard case .date(let start) = value, item.recurrence == nil else { return false }
        guard let due = item.due else { return true }
        if case .moment(let startMoment) = start, case .moment(let dueMoment) = due { return startMoment <= dueMoment }
        func day(_ date: DueDate) -> CalendarDay { CalendarDay(InterchangeDates.instant(of: date, in: timeZone), in: timeZone) }
        return day(start) <= day(due)
    }
}
