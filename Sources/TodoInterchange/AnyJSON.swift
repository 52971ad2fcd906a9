import FoundationEssentials

/// Any JSON value, for what todod keeps of a file without reading it (a
/// Taskwarrior attribute it does not model): read and written again as the
/// same value. Without Foundation's `JSONSerialization`, which todoctl does
/// not link. Not TodoProtocol's `JSONValue`, which sits above this module
/// and refuses what this must keep: numbers past Int64 and Double's
/// precision (`decimal`), read leniently.
enum AnyJSON: Codable, Hashable, Sendable {
    case null
    case bool(Bool)
    /// A whole number, exactly (Double would round past 2^53).
    case integer(Int64)
    /// Any other number, exactly as far as 38 digits go.
    case decimal(Decimal)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Decimal.self) {
            self = .decimal(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AnyJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: AnyJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .decimal(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// This value as compact JSON text, keys sorted.
    var text: String {
        String(decoding: (try? Self.encoder.encode(self)) ?? Data("null".utf8), as: UTF8.self)
    }

    init?(text: String) {
        guard let value = try? JSONDecoder().decode(AnyJSON.self, from: Data(text.utf8)) else { return nil }
        self = value
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

/// A JSON object whose values are read one by one: a value `AnyJSON` cannot
/// hold (a number past 1e308) is named in `unreadable` rather than losing
/// every other value of the object, or of the file.
struct LenientJSONObject: Decodable {
    var values: [String: AnyJSON] = [:]
    var unreadable: [String] = []

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for key in container.allKeys {
            if let value = try? container.decode(AnyJSON.self, forKey: key) {
                values[key.stringValue] = value
            } else {
                unreadable.append(key.stringValue)
            }
        }
    }
}
