import FoundationEssentials
import TodoModel

/// iCalendar to-dos (RFC 5545 `VTODO`): reading them from any calendar file
/// (other components are passed over) and writing a `VCALENDAR` of them.
///
/// `SUMMARY` is the title, `STATUS`/`COMPLETED` whether and when it was done
/// (a `CANCELLED` one is skipped), `DUE` the due date (`VALUE=DATE` a day,
/// a time with `TZID`, in UTC, or floating in todod's zone) or, without
/// one, `DTSTART` plus `DURATION` (`ICalendarDuration`), `CATEGORIES`
/// the tags, `PRIORITY` 1–4 high, 5 medium, 6–9 low, `RRULE` the
/// repetition, `DESCRIPTION` the notes (one per line), `UID` the identity,
/// `CREATED` and `LAST-MODIFIED` the dates. What iCalendar has no property
/// for — the project, the wait date, "from completion", the notes' own
/// dates — is written in `X-TODOD-` properties, which other programs keep
/// and ignore, so a round trip through them loses nothing.
///
/// A declared field is its `icalendarName` property: `scheduled` is
/// `DTSTART` of a to-do that does not repeat, and starts no later than it
/// is due (RFC 5545 §3.8.2.3); otherwise, as every other field, an
/// `X-TODOD-` property (`X-TODOD-SCHEDULED`, `X-TODOD-UNTIL`,
/// `X-TODOD-ESTIMATE`). A date is written as `DUE` is, a number as text, a
/// duration in ISO 8601 (`VALUE=DURATION`), text escaped. A value that does
/// not fit its field is kept as it came, as a property todod does not read is.
///
/// Links are `RELATED-TO` by the other to-do's `UID`: `RELTYPE=PARENT` (the
/// default) is `parent`, `RELTYPE=DEPENDS-ON` (RFC 9253) each of `depends`
/// (`links(_:fields:at:)`). Which item a UID names is the import plan's to
/// find; one it finds none for, and any other relation, is kept as it came.
public enum ICalendarFormat {
    /// What a `CANCELLED` to-do becomes: left out of an import (a file's
    /// cancelled to-dos are not work to bring in), or, for a sync, an open
    /// item that keeps its status, so the calendar's to-do is neither lost
    /// nor turned into something it is not.
    public enum Cancelled: Sendable { case skipped, keptOpen }

    /// What a to-do todod cannot hold as it is does to the whole text.
    /// An import is refused whole, so that a person fixes the file and
    /// imports again; a sync cannot fix a phone's to-do, so each such to-do
    /// is skipped alone (`ImportBatch.skipped`, its reason naming its UID)
    /// and the others come in. A blank title is no reason there: the to-do
    /// is titled with its description's first line, or "(untitled)".
    public enum Unholdable: Sendable { case refusesAll, skippedAlone }

    /// The title of a to-do a calendar left without one.
    public static let untitled = "(untitled)"

    public static func read(
        _ text: String, timeZone: TimeZone, fields: FieldCatalog = .builtIn, cancelled: Cancelled = .skipped,
        unholdable: Unholdable = .refusesAll
    ) throws(ImportProblem) -> ImportBatch {
        var batch = ImportBatch(fields: fields)
        var todo: [ContentLine]?
        var todoStart = 0
        // The components open inside the VTODO (VALARM), innermost last, and
        // their lines, BEGIN to END, kept as they came. An END that closes
        // nothing open is a line like any other; END:VTODO closes what is
        // still open (its END written for it), so what is kept nests.
        var open: [String] = []
        var components: [String] = []
        var stray: [String] = []
        var seen: [String: String] = [:]
        var count = 0
        for line in try ContentLine.parse(text) {
            let value = line.value.uppercased()
            switch line.name {
            case "BEGIN" where todo == nil && value == "VTODO":
                todo = []
                components = []
                open = []
                stray = []
                todoStart = line.lineNumber
                count += 1
            case "BEGIN" where todo != nil:
                open.append(value)
                components.append(line.text)
            case "END" where todo != nil && open.last == value:
                open.removeLast()
                components.append(line.text)
            case "END" where todo != nil && value == "VTODO":
                components += open.reversed().map { "END:" + $0 }
                let location = "to-do \(count) (line \(todoStart))"
                var item: ImportedItem?
                var skipped: ImportBatch.Skipped?
                do {
                    (item, skipped) = try self.item(
                        todo!, components: components, at: location, timeZone: timeZone, fields: fields, cancelled: cancelled,
                        unholdable: unholdable)
                } catch where unholdable == .skippedAlone {
                    let uid = todo!.first { $0.name == "UID" }.map { ContentLine.unescaped($0.value) } ?? ""
                    let title = todo!.first { $0.name == "SUMMARY" }.map { ContentLine.unescaped($0.value) } ?? ""
                    (item, skipped) = (nil, ImportBatch.Skipped(source: location, title: String(title.prefix(80)), reason: "UID \(uid): \(error.message)"))
                }
                for end in stray { item?.remarks.append("\(ImportFields.shown(end)) left out: it ends nothing begun") }
                todo = nil
                if let skipped { batch.skipped.append(skipped) }
                guard let item, case .external(let uid) = item.identity else { continue }
                // As the import plan knows them: a UUID in capitals is the
                // same UUID, and the same item, which an export would write twice.
                if let first = seen[ExternalIdentity.normalized(uid)] {
                    throw ImportProblem(location: location, message: "UID \(uid) is also the UID of \(first)")
                }
                seen[ExternalIdentity.normalized(uid)] = location
                batch.items.append(item)
            case "END" where todo != nil:
                stray.append(line.name + ":" + line.value)  // closes nothing open: not kept, said
            default:
                if open.isEmpty { todo?.append(line) } else if todo != nil { components.append(line.text) }
            }
        }
        if todo != nil { throw ImportProblem(location: "line \(todoStart)", message: "BEGIN:VTODO has no END:VTODO") }
        return batch
    }

    /// The properties todod reads (or writes anew, as `DTSTAMP`); any other
    /// property of a to-do is kept as it came (`ForeignFields.icalendar`).
    static let modelledProperties = Set(OwnField.all.flatMap(\.icalendarNames) + OwnField.icalendarItemNames)

    private static func item(
        _ lines: [ContentLine], components: [String], at location: String, timeZone: TimeZone, fields: FieldCatalog,
        cancelled: Cancelled, unholdable: Unholdable
    ) throws(ImportProblem) -> (ImportedItem?, ImportBatch.Skipped?) {
        var first: [String: ContentLine] = [:]
        for line in lines where first[line.name] == nil { first[line.name] = line }
        func text(_ name: String) -> String? { first[name].map { ContentLine.unescaped($0.value) } }
        var remarks: [String] = []
        var summary = text("SUMMARY") ?? ""
        if summary.contains("\n") {
            summary = summary.split(whereSeparator: \.isNewline).joined(separator: " ")
            remarks.append("the summary's line breaks became spaces")
        }
        let status = first["STATUS"]?.value.trimmingWhitespace().uppercased()
        if status == "CANCELLED", cancelled == .skipped {
            return (nil, ImportBatch.Skipped(source: location, title: summary, reason: "cancelled"))
        }
        guard let uid = text("UID"), !uid.isEmpty else { throw ImportProblem(location: location, message: "it has no UID") }
        if first["RECURRENCE-ID"] != nil {
            return (nil, ImportBatch.Skipped(source: location, title: summary, reason: "a changed occurrence of UID \(uid)"))
        }
        // For a sync: what todod cannot hold as it is, shown shortened and
        // kept whole (ICalendarFormat+KeptWhole).
        var keptWhole: [String] = []
        if unholdable == .skippedAlone, summary.trimmingWhitespace().count > TodoTitle.maximumLength, let line = first["SUMMARY"] {
            remarks.append("its title is \(summary.trimmingWhitespace().count) characters: shown shortened, kept whole")
            summary = shortenedTitle(summary.trimmingWhitespace())
            keptWhole.append(line.text)
        }
        if unholdable == .skippedAlone, summary.trimmingWhitespace().isEmpty {
            let firstLine = text("DESCRIPTION")?.split(whereSeparator: \.isNewline).lazy.map { $0.trimmingWhitespace() }.first { !$0.isEmpty }
            summary = firstLine.map { String($0.prefix(TodoTitle.maximumLength)) } ?? untitled
            remarks.append("it has no title: titled “\(summary)”")
        }
        let title = try ImportFields.title(summary, at: location)
        func instant(_ name: String) throws(ImportProblem) -> Date? {
            guard let line = first[name] else { return nil }
            return try date(line, at: location, timeZone: timeZone, remarks: &remarks).map { InterchangeDates.instant(of: $0, in: timeZone) }
        }
        let completedAt = try instant("COMPLETED")
        let isDone = status == "COMPLETED" || (status == nil && completedAt != nil)
        var tags: [String] = []
        for line in lines where line.name == "CATEGORIES" { tags += ContentLine.unescapedList(line.value) }
        var priority: Priority?
        if let value = first["PRIORITY"]?.value {
            switch Int(value.trimmingWhitespace()) {
            case 0?: break
            case (1...4)?: priority = .high
            case 5?: priority = .medium
            case (6...9)?: priority = .low
            default: remarks.append("PRIORITY \(value) left out (iCalendar's are 0 to 9)")
            }
        }
        let due = try self.due(first, at: location, timeZone: timeZone, remarks: &remarks)
        var recurrence: Recurrence?
        let dueDay: CalendarDay? =
            switch due {
            case .day(let day)?: day
            case .moment(let moment)?: CalendarDay(moment, in: timeZone)
            case nil: nil
            }
        // todod's own text says what an RRULE cannot ("from completion"),
        // while the RRULE is still the one todod wrote beside it: a
        // repetition changed (or ended) in a calendar, which keeps the X-
        // line as it was, is read from the RRULE.
        if let own = text("X-TODOD-RECURRENCE") {
            if let read = Recurrence(own) {
                if let rule = first["RRULE"]?.value, ICalendarRecurrence.sameRule(rule, ICalendarRecurrence.rule(of: read, due: dueDay)) {
                    recurrence = read
                } else {
                    remarks.append("X-TODOD-RECURRENCE \(ImportFields.shown(own)) not used: the RRULE was changed since todod wrote it")
                }
            } else {
                remarks.append("X-TODOD-RECURRENCE \(ImportFields.shown(own)) not understood; RRULE read instead")
            }
        }
        if recurrence == nil, let rule = first["RRULE"]?.value {
            switch ICalendarRecurrence.read(rule, due: dueDay) {
            case .success(let read): recurrence = read
            case .failure(let problem): remarks.append(problem.message)
            }
        }
        let updatedAt = try instant("LAST-MODIFIED")
        let createdAt = try instant("CREATED")
        // Notes are dated when the to-do was last changed or made; without
        // either, when the calendar wrote it (DTSTAMP, which RFC 5545 asks of
        // every to-do), not in 1970. One that is no date is passed over:
        // todod writes its own.
        var stampRemarks: [String] = []
        let stamp = first["DTSTAMP"].flatMap { try? date($0, at: location, timeZone: timeZone, remarks: &stampRemarks) }
        let notesDate = updatedAt ?? createdAt ?? stamp.map { InterchangeDates.instant(of: $0, in: timeZone) } ?? Date(timeIntervalSince1970: 0)
        var notes: [TodoNote]
        if unholdable == .skippedAlone, let description = text("DESCRIPTION"), !holdsAsNotes(description), let line = first["DESCRIPTION"] {
            remarks.append("its description is more than todod holds as notes: shown shortened, kept whole")
            notes = []
            for note in shortenedNotes(description) {
                notes.append(TodoNote(text: try ImportFields.note(note, at: "\(location), DESCRIPTION"), addedAt: notesDate))
            }
            keptWhole.append(line.text)
        } else {
            notes = try self.notes(of: lines, description: text("DESCRIPTION"), at: location, dated: notesDate)
        }
        guard notes.count <= TodoItem.maximumNotes else {
            throw ImportProblem(location: location, message: "\(notes.count) notes; an item holds at most \(TodoItem.maximumNotes)")
        }
        // A repeating to-do starts, in todod, at its due date: an export
        // writes that as its DTSTART, which the RRULE counts from, so the
        // file's own is not kept (and said, when it was another date).
        let startsWhenDue = recurrence != nil && due != nil
        if startsWhenDue, let start = first["DTSTART"], start.value != first["DUE"]?.value || start.parameters != first["DUE"]?.parameters,
            first["DUE"] != nil
        {
            remarks.append("start date (DTSTART) \(ImportFields.shown(start.value)) left out: a repeating to-do starts at its due date")
        }
        // Read into the due date: a DURATION with DTSTART, or one beside a
        // DUE (which it may not be); anything else todod does not read is kept.
        let durationRead = first["DURATION"] != nil && (first["DUE"] != nil || due != nil)
        if first["DTSTART"] != nil && first["DUE"] == nil && due != nil {
            remarks.append("start date (DTSTART) used with DURATION for the due date")
        }
        var (values, readNames) = try self.values(
            first, fields: fields, repeats: recurrence != nil, at: location, timeZone: timeZone, remarks: &remarks)
        // A calendar's RRULE;UNTIL is the item's `until`, unless todod's own
        // X-TODOD-UNTIL says it (it is exact; UNTIL is to the second).
        let untilName = FieldDeclaration.until.name
        if recurrence != nil, values[untilName] == nil, fields[untilName] != nil, let rule = first["RRULE"]?.value,
            let text = ICalendarRecurrence.until(in: rule)
        {
            if let until = ICalendarRecurrence.until(fromValue: text, timeZone: timeZone) {
                values[untilName] = .date(until)
            } else {
                remarks.append("UNTIL \(ImportFields.shown(text)) of the repetition not used: not an iCalendar date")
            }
        }
        // A property todod reads but could not (an RRULE it cannot repeat
        // by, a PRIORITY out of range) is kept too, and goes back while
        // todod has no value of its own there. One pass: a file may hold a
        // million lines, refused only once counted.
        let links = try self.links(lines, fields: fields, at: location)
        let linkLines = Set(links.compactMap { if case .icalendar(let line) = $0.source { line } else { nil } })
        var kept: [String] = []
        var keptNames: [String] = []
        var otherNames: Set<String> = []
        for line in lines {
            // A status todod has no word for (IN-PROCESS, a sync's
            // CANCELLED) is kept for as long as the item is not done.
            let unread = (line.name == "RRULE" && recurrence == nil) || (line.name == "PRIORITY" && priority == nil)
                || (line.name == "STATUS" && !isDone && !["NEEDS-ACTION", "COMPLETED"].contains(line.value.trimmingWhitespace().uppercased()))
            if modelledProperties.contains(line.name) && !unread { continue }
            if line.name == "DURATION" && durationRead || line.name == "DTSTART" && startsWhenDue || readNames.contains(line.name) {
                continue
            }
            kept.append(line.text)
            keptNames.append(line.name)
            if !linkLines.contains(line.text) { otherNames.insert(line.name) }
        }
        kept += keptWhole
        for line in components {
            kept.append(line)
            if line.uppercased().hasPrefix("BEGIN:") { keptNames.append(String(line.dropFirst(6)).uppercased()) }
        }
        // A link is not named as kept while the import plan may resolve it
        // (`ImportPlan`), unless a line that is no link has its name.
        let linkOnly = Set(links.map(\.property)).subtracting(otherNames)
        let foreign = try ImportFields.foreign(
            ForeignFields(icalendar: kept), names: keptNames.filter { !linkOnly.contains($0) }, of: "calendars", at: location,
            remarks: &remarks)
        var item = ImportedItem(
            identity: .external(uid), source: location, title: title, isDone: isDone, createdAt: createdAt,
            updatedAt: updatedAt, completedAt: isDone ? completedAt : nil,
            due: due,
            wait: try first["X-TODOD-WAIT"].flatMap { line throws(ImportProblem) in
                try date(line, at: location, timeZone: timeZone, remarks: &remarks)
            },
            tags: try ImportFields.tags(tags, at: location, remarks: &remarks),
            project: text("X-TODOD-PROJECT").flatMap { ImportFields.project($0, remarks: &remarks) },
            priority: priority, notes: notes, recurrence: recurrence, values: values, remarks: remarks, foreign: foreign,
            links: links)
        if !links.isEmpty { item.keptNames = ImportedItem.KeptNames(program: "calendars", names: keptNames, linkOnly: linkOnly) }
        return (item, nil)
    }

    static let utc = TimeZone(secondsFromGMT: 0)!

    static func header(version: String) -> String {
        ContentLine.folded("BEGIN:VCALENDAR") + ContentLine.folded("VERSION:2.0")
            + ContentLine.folded("PRODID:-//todod//todod \(version)//EN")
    }

    static let footer = ContentLine.folded("END:VCALENDAR")

    /// What a calendar wrote and todod keeps, as it came, but for a property
    /// `written` has already (a `DTSTART` todod writes for a repetition or
    /// the `scheduled` date, a `STATUS`), one that may not stand beside them
    /// (`DURATION` beside a `DUE`), and a `DTSTART` after the due date,
    /// changed since (RFC 5545 §3.8.2.3). Its value type is the file's
    /// business: a start day before a due time is kept as it came.
    /// Components go whole.
    private static func keptLines(of item: TodoItem, besides written: [String], timeZone: TimeZone) -> [String] {
        guard !item.foreign.icalendar.isEmpty else { return [] }
        var names = Set(written.map { name(of: $0) }).union(keptWholeNames)
        if names.contains("DUE") { names.insert("DURATION") }
        // A to-do has as many RELATED-TO as it relates to: those todod
        // writes for its links go with the kept ones (a relation todod has
        // no link for, a UID it found no to-do for), but the same line twice.
        names.remove("RELATED-TO")
        let writtenLines = Set(written)
        return nesting(item.foreign.icalendar).compactMap { line, depth in
            if depth > 0 { return line }
            if writtenLines.contains(line) { return nil }
            let name = name(of: line)
            if name == "DTSTART", let due = item.due, !startFits(line, before: due, timeZone: timeZone) { return nil }
            return names.contains(name) ? nil : line
        }
    }

    /// Each kept line with the number of components it is part of (0 for
    /// a property of the to-do; a component's BEGIN and END count as in
    /// it), counted as `read` counts: an END closes the component open by
    /// its name.
    private static func nesting(_ lines: [String]) -> [(line: String, depth: Int)] {
        var open: [String] = []
        return lines.map { line in
            let name = name(of: line)
            let value = String(line.drop { $0 != ":" }.dropFirst()).uppercased()
            if name == "BEGIN" {
                open.append(value)
                return (line, open.count)
            }
            if name == "END", open.last == value {
                defer { open.removeLast() }
                return (line, open.count)
            }
            return (line, open.count)
        }
    }

    /// The kept properties' names, once each, and the kept components'
    /// (`VALARM`), one each, in order: what `todoctl show` lists.
    static func keptNames(_ lines: [String]) -> [String] {
        var names: [String] = []
        for (line, depth) in nesting(lines) {
            let name = name(of: line)
            if depth == 0, !names.contains(name) {
                names.append(name)
            } else if depth == 1, name == "BEGIN" {
                names.append(String(line.drop { $0 != ":" }.dropFirst()).uppercased())
            }
        }
        return names
    }

    /// Whether a kept `DTSTART` line is not after `due`: a day compared by
    /// days, a time by instants (a time beside a due day by its day).
    private static func startFits(_ line: String, before due: DueDate, timeZone: TimeZone) -> Bool {
        guard let parsed = try? ContentLine.parse(line).first,
            let (day, time, zone) = InterchangeDates.dateTimeParts(parsed.value.trimmingWhitespace())
        else { return true }  // not a date todod can read: the file's business
        guard let time, case .moment(let dueMoment) = due else {
            return day <= CalendarDay(InterchangeDates.instant(of: due, in: timeZone), in: timeZone)
        }
        let clock = zone == "Z" ? utc : parsed.parameters["TZID"].flatMap { TimeZone(identifier: $0) } ?? timeZone
        return InterchangeDates.local(day, hour: time.hour, minute: time.minute, second: time.second, in: clock) <= dueMoment
    }

    /// `093000` for 09:30.
    private static func compactTime(_ time: TimeOfDay) -> String {
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return two(time.hour) + two(time.minute) + two(time.second)
    }

    /// A content line's name: what comes before its first `;` or `:`.
    static func name(of line: String) -> String {
        String(line.prefix { $0 != ";" && $0 != ":" }).uppercased()
    }

    /// `item` as a `VTODO`, stamped `now`. A repeating item's `DTSTART` is
    /// its due date, from which RFC 5545 counts the `RRULE`'s occurrences
    /// (a `DUE` alone does not anchor them for every reader); its due moment
    /// is written in floating local time, as todod repeats it: the same
    /// wall-clock time on the local days the rule names, across summer time.
    /// A value whose field is no longer declared (an orphan) is written as
    /// `X-TODOD-NAME`, as its kind is written.
    static func entry(
        _ item: TodoItem, listID: String, now: Date, timeZone: TimeZone, fields: FieldCatalog = .builtIn, links: LinkNames? = nil
    ) -> String {
        var lines = ["BEGIN:VTODO", "UID:" + ContentLine.escaped(ExternalIdentity.of(item, listID: listID))]
        lines.append("DTSTAMP:" + InterchangeDates.compactUTC(now))
        lines.append("CREATED:" + InterchangeDates.compactUTC(item.createdAt))
        lines.append("LAST-MODIFIED:" + InterchangeDates.compactUTC(item.updatedAt))
        lines.append(
            keptWhole("SUMMARY", of: item) { shortenedTitle($0.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingWhitespace()) == item.title }
                ?? "SUMMARY:" + ContentLine.escaped(item.title))
        let keptStatus =
            item.isDone ? nil : Self.nesting(item.foreign.icalendar).first { $0.depth == 0 && Self.name(of: $0.line) == "STATUS" }?.line
        lines.append(keptStatus ?? "STATUS:" + (item.isDone ? "COMPLETED" : "NEEDS-ACTION"))
        if let completed = item.completedAt { lines.append("COMPLETED:" + InterchangeDates.compactUTC(completed)) }
        // A repeating item's due moment is written in floating local time:
        // todod repeats it at the same wall-clock time, and the RRULE's days
        // are the local ones, which in UTC could be the day before or after.
        // So is one with an RRULE kept as it came (`FREQ=WEEKLY;BYDAY=MO,WE`):
        // counted from a start in UTC, its 09:00 would be 10:00 in summer.
        let floating =
            item.recurrence != nil
            || Self.nesting(item.foreign.icalendar).contains { $0.depth == 0 && Self.name(of: $0.line) == "RRULE" }
        func value(_ date: DueDate) -> String {
            switch date {
            case .day(let day): ";VALUE=DATE:" + InterchangeDates.compact(day)
            case .moment(let moment) where floating:
                ":" + InterchangeDates.compact(CalendarDay(moment, in: timeZone)) + "T" + Self.compactTime(TimeOfDay(moment, in: timeZone))
            case .moment(let moment): ":" + InterchangeDates.compactUTC(moment)
            }
        }
        if let due = item.due { lines.append("DUE" + value(due)) }
        if let priority = item.priority {
            lines.append("PRIORITY:" + (priority == .high ? "1" : priority == .medium ? "5" : "9"))
        }
        if !item.tags.isEmpty { lines.append("CATEGORIES:" + item.sortedTags.map(ContentLine.escaped).joined(separator: ",")) }
        if let recurrence = item.recurrence {
            // todod repeats from the due date, so that is the start its RRULE
            // counts from, in place of one a calendar gave (which would not
            // move on with the occurrences todod makes).
            if let due = item.due { lines.append("DTSTART" + value(due)) }
            let dueDay: CalendarDay? =
                switch item.due {
                case .day(let day)?: day
                case .moment(let moment)?: CalendarDay(moment, in: timeZone)
                case nil: nil
                }
            var rule = ICalendarRecurrence.rule(of: recurrence, due: dueDay)
            // Where the repetition ends, so that other calendars end it there too.
            if let until = item.until, let due = item.due {
                rule += ";UNTIL=" + ICalendarRecurrence.untilValue(until, due: due, timeZone: timeZone)
            }
            lines.append("RRULE:" + rule)
            if recurrence.countsFromCompletion { lines.append("X-TODOD-RECURRENCE:" + ContentLine.escaped(recurrence.text)) }
        }
        if let description = keptDescription(of: item) {
            lines.append(description)
        } else {
            lines += noteLines(of: item)
        }
        if let project = item.project { lines.append("X-TODOD-PROJECT:" + ContentLine.escaped(project)) }
        if let wait = item.wait { lines.append("X-TODOD-WAIT" + value(wait)) }
        lines += declaredFieldLines(of: item, fields: fields, timeZone: timeZone, dateValue: value)
        lines += linkLines(of: item, fields: fields, links: links ?? LinkNames(listID: listID))
        lines += keptLines(of: item, besides: lines, timeZone: timeZone)
        lines.append("END:VTODO")
        return lines.map(ContentLine.folded).joined()
    }
}
