/// A declared field's raw value in a row: a JSON number for a numeric
/// field and for `parent`'s id, an array of ids for `depends`, else text
/// (ISO 8601 for dates and durations).
public enum RowFieldValue: Codable, Hashable, Sendable {
    case text(String)
    case number(Double)
    case ids([Int64])

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
