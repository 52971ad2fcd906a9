import FoundationEssentials

/// The value of a declared field on one item (see `FieldDeclaration`).
///
/// One type for every declared field, built in or user-defined, so that an
/// item keeps them all in one dictionary (`TodoItem.values`), the stores
/// keep them in one column, and a field added in todod.conf needs no code.
public enum FieldValue: Hashable, Sendable {
    case text(String)
    /// Kept as a `Double`: Taskwarrior's numeric attributes are JSON numbers,
    /// and the shortest text of a double reads back as the same double.
    case number(Double)
    case date(DueDate)
    /// Whole seconds.
    case duration(Int)
    /// Links to other items, in the order given, each once (one for `parent`).
    case items([TodoID])

    /// The kind this value is of.
    public var kind: FieldKind {
        switch self {
        case .text: .text
        case .number: .number
        case .date: .date
        case .duration: .duration
        case .items(let ids): ids.count == 1 ? .item : .items
        }
    }

    /// `ids` in their first order, each once.
    public static func uniqueIDs(_ ids: [TodoID]) -> [TodoID] {
        var seen: Set<TodoID> = []
        return ids.filter { seen.insert($0).inserted }
    }

    /// The linked ids, or none for a value of another kind.
    public var linkedIDs: [TodoID] {
        if case .items(let ids) = self { ids } else { [] }
    }
}

/// Stored tagged with its kind (`{"date":{"day":…}}`), so a value whose
/// declaration is gone (an orphan) still reads back as what it was.
extension FieldValue: Codable {
    private enum CodingKeys: String, CodingKey {
        case text, number, date, seconds, items
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let text = try container.decodeIfPresent(String.self, forKey: .text) {
            self = .text(text)
        } else if let number = try container.decodeIfPresent(Double.self, forKey: .number) {
            self = .number(number)
        } else if let date = try container.decodeIfPresent(DueDate.self, forKey: .date) {
            self = .date(date)
        } else if let seconds = try container.decodeIfPresent(Int.self, forKey: .seconds) {
            self = .duration(seconds)
        } else if let ids = try container.decodeIfPresent([TodoID].self, forKey: .items) {
            self = .items(ids)
        } else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a field value is text, number, date, seconds or items"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .text(let text): try container.encode(text, forKey: .text)
        case .number(let number): try container.encode(number, forKey: .number)
        case .date(let date): try container.encode(date, forKey: .date)
        case .duration(let seconds): try container.encode(seconds, forKey: .seconds)
        case .items(let ids): try container.encode(ids, forKey: .items)
        }
    }
}
