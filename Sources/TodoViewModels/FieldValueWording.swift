import FoundationEssentials
import TodoModel
import TodoViewState

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

extension RowFieldValue {
    /// A value as a row carries it, for scripts: the field's kind decides
    /// whether one item is a number (`parent`) or an array of ids (`depends`).
    init(_ value: FieldValue, field: FieldDeclaration?) {
        switch value {
        case .number(let number): self = .number(number)
        case .items(let ids) where field?.kind == .item && ids.count == 1: self = .number(Double(ids[0].rawValue))
        case .items(let ids): self = .ids(ids.map(\.rawValue))
        default: self = .text(FieldValueWording.rawText(value))
        }
    }
}
