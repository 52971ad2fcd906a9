import Foundation
import TodoInterchange

/// The fields a three-way merge compares: a property, or a few that say one
/// thing together, and the nested components of one kind.
///
/// `STATUS`, `COMPLETED` and `PERCENT-COMPLETE` are whether it is done;
/// `DESCRIPTION` and todod's `X-TODOD-NOTE` lines are the notes; `RRULE`
/// and todod's `X-TODOD-RECURRENCE` the repetition. Taking one of them
/// from one side and its partner from the other would say two things at
/// once. What each side stamps on every write (`DTSTAMP`, `LAST-MODIFIED`,
/// `SEQUENCE`) and what never changes (`UID`, `CREATED`) are no field.
enum SyncField {
    /// The field property `name` belongs to; nil for those no merge takes.
    static func of(_ name: String) -> String? {
        switch name {
        case "UID", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE", "CREATED": nil
        case "STATUS", "COMPLETED", "PERCENT-COMPLETE": "STATUS"
        case "DESCRIPTION", "X-TODOD-NOTE": "DESCRIPTION"
        case "RRULE", "X-TODOD-RECURRENCE", "RDATE", "EXDATE": "RRULE"
        default: name
        }
    }

    /// Whether a person sees the field (in todod or on a phone): its value
    /// is something somebody chose. Without an agreed version, a choice one
    /// side lacks may have been cleared there, so it is a conflict to note;
    /// what no person sees is only kept.
    static func isShown(_ field: String) -> Bool {
        switch field {
        case "SUMMARY", "DUE", "DTSTART", "STATUS", "PRIORITY", "CATEGORIES", "DESCRIPTION", "RRULE", "RELATED-TO", "BEGIN:VALARM": true
        default: field.hasPrefix("X-TODOD-")
        }
    }

    /// The field of the nested component whose first line is `begin`.
    static func ofComponent(_ lines: [String]) -> String {
        "BEGIN:" + String((lines.first ?? "").drop { $0 != ":" }.dropFirst()).uppercased()
    }

    /// What `todo` says in `field`, in one spelling, to compare: equal
    /// values mean the same thing; nil when the to-do has nothing there.
    static func value(of field: String, in todo: TodoComponent) -> [String]? {
        if field.hasPrefix("BEGIN:") {
            let blocks = todo.components.filter { ofComponent($0) == field }.map { $0.joined(separator: "\n") }.sorted()
            return blocks.isEmpty ? nil : blocks
        }
        let properties = todo.properties.filter { of($0.name) == field }
        guard !properties.isEmpty else { return nil }
        switch field {
        case "STATUS":
            // Done is done whichever of the three says it.
            // Done is done whichever of the three says it; NEEDS-ACTION is
            // what no status says; how far along counts while not done.
            let status = properties.first { $0.name == "STATUS" }?.value.uppercased().trimmingCharacters(in: .whitespaces)
            if status == "COMPLETED" || properties.contains(where: { $0.name == "COMPLETED" }) { return ["COMPLETED"] }
            let percent = properties.first { $0.name == "PERCENT-COMPLETE" }.flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) }
            let said = [status == "NEEDS-ACTION" ? nil : status, percent.flatMap { $0 > 0 ? "\($0)%" : nil }].compactMap { $0 }
            return said.isEmpty ? nil : said
        case "DESCRIPTION":
            // The text says the notes; todod's own lines only date them.
            guard let description = properties.first(where: { $0.name == "DESCRIPTION" }) else { return nil }
            let text = ContentLine.unescaped(description.value).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return text.isEmpty ? nil : text
        case "CATEGORIES":
            // Tags, each once, in any case and order.
            let tags = Set(properties.flatMap { ContentLine.unescapedList($0.value) }.map { $0.lowercased() })
            return tags.isEmpty ? nil : tags.sorted()
        case "PRIORITY":
            // 1–4 high, 5 medium, 6–9 low, as todod reads them; 0 is none.
            guard let number = Int(properties[0].value.trimmingCharacters(in: .whitespaces)), number > 0 else { return nil }
            return [number < 5 ? "high" : number == 5 ? "medium" : "low"]
        default:
            return properties.map(\.normalized).sorted()
        }
    }

    /// Every field `todo` has, in the order its properties come.
    static func fields(of todo: TodoComponent) -> [String] {
        var seen: Set<String> = []
        var fields: [String] = []
        for name in todo.properties.map(\.name).compactMap(of) + todo.components.map(ofComponent) where seen.insert(name).inserted {
            fields.append(name)
        }
        return fields
    }
}

extension TodoComponent {
    /// Whether `other` says the same in every field the merge compares:
    /// what each side stamps on a write (`DTSTAMP`, `LAST-MODIFIED`) and
    /// spelling (parameter order, a tag's case) make no difference.
    public func saysTheSame(as other: TodoComponent) -> Bool {
        let fields = Set(SyncField.fields(of: self)).union(SyncField.fields(of: other))
        return fields.allSatisfy { SyncField.value(of: $0, in: self) == SyncField.value(of: $0, in: other) }
    }

    /// Whether it is done: `STATUS:COMPLETED` or a `COMPLETED` date.
    public var isCompleted: Bool { SyncField.value(of: "STATUS", in: self) == ["COMPLETED"] }

    /// Whether it repeats (`RRULE`).
    public var repeats: Bool { first("RRULE") != nil }

    /// `self` with the fields `field`'s properties of `other` in place of its own.
    public func taking(_ field: String, from other: TodoComponent) -> TodoComponent {
        var properties = self.properties.filter { SyncField.of($0.name) != field }
        properties += other.properties.filter { SyncField.of($0.name) == field }
        return TodoComponent(properties: properties, components: components)
    }

    /// Parses one `BEGIN:VTODO`…`END:VTODO` block (as `text` writes it).
    public init(parsing text: String) throws(ResourceProblem) {
        let lines: [ContentLine]
        do { lines = try ContentLine.parse(text) } catch { throw ResourceProblem("\(error.location): \(error.message)") }
        guard lines.count >= 2, lines.first?.name == "BEGIN", lines.last?.name == "END" else {
            throw ResourceProblem("not a VTODO")
        }
        self.init(lines: lines[1..<(lines.count - 1)])
    }
}
