import FoundationEssentials
import TodoModel

/// How declared fields' values read in rows and in `todoctl show`: the raw
/// value for scripts (`RowFieldValue`) and the worded one for people.
///
/// Dates read as due dates do ("scheduled tomorrow", "until 2026-12-24");
/// a user-defined field reads as its label and value ("Estimate: 3",
/// "Effort: 2h 30min"). A value whose field is no longer declared (an
/// orphan) has no label: it reads as its name and raw value ("size: XL").
struct FieldValueWording {
    let wording: DateWording
    let today: CalendarDay
    let fields: FieldCatalog

    /// The built-in date fields read as a phrase, like "due tomorrow".
    private static let phraseFields: Set<String> = [FieldDeclaration.scheduled.name, FieldDeclaration.until.name]

    func worded(_ value: FieldValue, named name: String) -> String {
        guard let field = fields[name] else { return name + ": " + Self.rawText(value) }
        if Self.phraseFields.contains(name), case .date(let date) = value {
            return name + " " + dateWords(date)
        }
        return field.label + ": " + words(value)
    }

    /// The value alone, as people read it.
    func words(_ value: FieldValue) -> String {
        switch value {
        case .text(let text): text
        case .number(let number): NumberText.text(of: number)
        case .date(let date): dateWords(date)
        case .duration(let seconds): DurationText.worded(seconds: seconds)
        case .items(let ids): ids.map(\.description).joined(separator: ", ")
        }
    }

    private func dateWords(_ date: DueDate) -> String {
        // "due tomorrow at 14:00" without its "due ".
        String(wording.due(date, today: today).dropFirst("due ".count))
    }

    /// The value as scripts and exports read it: ISO 8601 for dates and durations.
    static func rawText(_ value: FieldValue) -> String {
        switch value {
        case .text(let text): text
        case .number(let number): NumberText.text(of: number)
        case .date(let date): ISODateText.date(date)
        case .duration(let seconds): DurationText.iso8601(seconds: seconds)
        case .items(let ids): ids.map(\.description).joined(separator: ",")
        }
    }
}

/// A declared field's raw value in a row: a JSON number for a numeric
/// field and for `parent`'s id, an array of ids for `depends`, else text
/// (ISO 8601 for dates and durations).
public enum RowFieldValue: Codable, Hashable, Sendable {
    case text(String)
    case number(Double)
    case ids([Int64])

    init(_ value: FieldValue, field: FieldDeclaration?) {
        switch value {
        case .number(let number): self = .number(number)
        case .items(let ids) where field?.kind == .item && ids.count == 1: self = .number(Double(ids[0].rawValue))
        case .items(let ids): self = .ids(ids.map(\.rawValue))
        default: self = .text(FieldValueWording.rawText(value))
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let ids = try? container.decode([Int64].self) {
            self = .ids(ids)
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        case .ids(let ids): try container.encode(ids)
        }
    }
}
