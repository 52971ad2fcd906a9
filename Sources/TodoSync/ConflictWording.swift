import Foundation
import TodoInterchange

/// The note that keeps a losing value: "conflict: Tasks.org set due to
/// Sat 12 Dec 2026". It names the side, the field as a person calls it, and
/// the value as that side had it, so that the person can put it back.
/// Without an agreed version nobody is known to have set anything: "conflict:
/// todod had due Sat 12 Dec 2026".
///
/// A note is at most `maximumNoteLength` characters, well inside what todod
/// holds (2,000 a note): a value past `maximumValueLength` is shortened, and
/// the note says so. A conflict note todod refused would stop every round.
enum ConflictWording {
    static let maximumValueLength = 300
    static let maximumNoteLength = 500

    static func note(side: String, field: String, in todo: TodoComponent, timeZone: TimeZone, agreed: Bool = true) -> String {
        let properties = todo.properties.filter { SyncField.of($0.name) == field }
        let name = Self.name(of: field)
        guard var value = worded(field, properties, todo: todo, timeZone: timeZone) else {
            return agreed ? "conflict: \(side) cleared \(name)" : "conflict: \(side) had no \(name.replacingOccurrences(of: "the ", with: ""))"
        }
        value = value.split(whereSeparator: \.isNewline).joined(separator: " ")
        var shortened = ""
        if value.count > maximumValueLength {
            shortened = " (shortened from \(value.count) characters)"
            value = String(value.prefix(maximumValueLength)) + "…"
        }
        let note = agreed ? "conflict: \(side) set \(name) to \(value)\(shortened)" : "conflict: \(side) had \(name) \(value)\(shortened)"
        return String(note.prefix(maximumNoteLength))
    }

    private static func name(of field: String) -> String {
        switch field {
        case "SUMMARY": "the title"
        case "DUE": "due"
        case "DTSTART": "the start"
        case "STATUS": "the status"
        case "PRIORITY": "the priority"
        case "CATEGORIES": "the tags"
        case "DESCRIPTION": "the notes"
        case "RRULE": "the repetition"
        case "RELATED-TO": "the links"
        case "X-TODOD-PROJECT": "the project"
        case "X-TODOD-WAIT": "wait"
        case "BEGIN:VALARM": "the alarms"
        default:
            field.hasPrefix("X-TODOD-") ? String(field.dropFirst(8)).lowercased() : field.hasPrefix("BEGIN:") ? String(field.dropFirst(6)) : field
        }
    }

    private static func worded(_ field: String, _ properties: [TodoComponent.Property], todo: TodoComponent, timeZone: TimeZone)
        -> String?
    {
        if field.hasPrefix("BEGIN:") {
            let count = todo.components.count { SyncField.ofComponent($0) == field }
            return count == 0 ? nil : "\(count) of its own"
        }
        guard let first = properties.first else { return nil }
        switch field {
        case "DUE", "DTSTART", "X-TODOD-WAIT", "X-TODOD-SCHEDULED", "X-TODOD-UNTIL":
            return date(first, timeZone: timeZone) ?? first.value
        case "STATUS":
            return (SyncField.value(of: field, in: todo) ?? ["NEEDS-ACTION"]).joined(separator: ", ").lowercased()
                .replacingOccurrences(of: "-", with: " ")
        case "PRIORITY", "CATEGORIES":
            return SyncField.value(of: field, in: todo)?.joined(separator: ", ")
        case "DESCRIPTION":
            return SyncField.value(of: field, in: todo).map { "“" + $0.joined(separator: " / ") + "”" }
        case "SUMMARY":
            return "“" + ContentLine.unescaped(first.value) + "”"
        default:
            return properties.map { ContentLine.unescaped($0.value) }.joined(separator: ", ")
        }
    }

    /// `20261212` as "Sat 12 Dec 2026", `20261212T093000Z` as "Sat 12 Dec
    /// 2026 09:30" in `timeZone` (a floating time as it is written).
    private static func date(_ property: TodoComponent.Property, timeZone: TimeZone) -> String? {
        let value = property.value.trimmingCharacters(in: .whitespaces)
        let digits = Array(value.utf8)
        guard digits.count >= 8, let year = Int(value.prefix(4)), let month = Int(value.dropFirst(4).prefix(2)),
            let day = Int(value.dropFirst(6).prefix(2))
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = property.parameters["TZID"].flatMap(TimeZone.init(identifier:)) ?? timeZone
        var hour: Int?
        var minute = 0
        if digits.count >= 13, digits[8] == UInt8(ascii: "T") {
            hour = Int(value.dropFirst(9).prefix(2))
            minute = Int(value.dropFirst(11).prefix(2)) ?? 0
        }
        if value.hasSuffix("Z") { calendar.timeZone = .gmt }
        guard let instant = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour ?? 12, minute: minute)) else {
            return nil
        }
        calendar.timeZone = value.hasSuffix("Z") ? timeZone : calendar.timeZone
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute], from: instant)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var text = "\(weekdays[(parts.weekday ?? 1) - 1]) \(parts.day ?? day) \(months[(parts.month ?? month) - 1]) \(parts.year ?? year)"
        if hour != nil {
            func two(_ number: Int?) -> String { let number = number ?? 0; return number < 10 ? "0\(number)" : "\(number)" }
            text += " " + two(parts.hour) + ":" + two(parts.minute)
        }
        return text
    }
}

/// What a server's side is called in notes and `sync status`: the program
/// that last wrote the to-do, read from its `PRODID`, or "the server".
public enum RemoteName {
    public static func of(productID: String?) -> String {
        guard let productID, !productID.isEmpty else { return "the server" }
        let lower = productID.lowercased()
        let known: [(String, String)] = [
            // The app before DAVx⁵, which names the app it syncs for.
            ("tasks.org", "Tasks.org"), ("org.tasks", "Tasks.org"), ("jtx", "jtx Board"), ("org.dmfs.tasks", "OpenTasks"),
            ("opentasks", "OpenTasks"), ("mozilla", "Thunderbird"), ("thunderbird", "Thunderbird"), ("apple inc", "Apple Reminders"),
            ("apple computer", "Apple Reminders"), ("davx5", "DAVx⁵"),
            ("todoman", "todoman"), ("evolution", "Evolution"), ("gnome", "GNOME"), ("nextcloud", "Nextcloud"),
            // Ours, kept by a client that rewrote the to-do (python-caldav does): who is unknown.
            ("todod", "the server"),
        ]
        if let name = known.first(where: { lower.contains($0.0) })?.1 { return name }
        // `-//Owner//Product//EN`: the product.
        let parts = productID.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0 != "-" }
        if parts.count >= 2 { return String(parts[1]) }
        return "the server"
    }
}
