import FoundationEssentials

/// Any JSON value, for what todod reads without knowing its shape in
/// advance: in the protocol, `rpc.describe`'s document, a transaction's
/// commands, `todoctl call` (requests do not go through it: their
/// parameters are decoded straight from their bytes, and
/// `JSONValue(parsing:)` reads one strictly); in a Taskwarrior file, the
/// attributes todod does not model, kept to be written back as they were.
///
/// Numbers are read as a whole `integer` when they are one that fits, else
/// as a `double`; a decoder whose `userInfo` asks for exact numbers
/// (`JSONValue.exactNumbers`) reads them as a `decimal` instead, which keeps
/// every digit a Double would round (38 of them), as a file written back
/// must.
public enum JSONValue: Hashable, Sendable, Codable {
    case null
    case bool(Bool)
    /// A whole number, exactly (Double would round past 2^53).
    case integer(Int64)
    case double(Double)
    /// Any other number, read for `exactNumbers`: exactly as far as 38 digits go.
    case decimal(Decimal)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Objects and arrays are tried first and their members decoded without
    /// `try?`, so an error deep inside keeps its path ("commands.[1].params.id")
    /// instead of being swallowed by the attempt at the next type.
    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(members)
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if decoder.userInfo[Self.exactNumbers] as? Bool == true, let value = try? container.decode(Decimal.self) {
            self = .decimal(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a number too large to represent")
        }
    }

    /// The `userInfo` key (with `true`) that reads numbers other than whole
    /// ones as `decimal`, exactly.
    public static let exactNumbers = CodingUserInfoKey(rawValue: "todod.JSONValue.exactNumbers")!

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .decimal(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The JSON type's name, for error messages ("expected an object, got a string").
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .double, .decimal: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
    public init(nilLiteral: ()) { self = .null }
}
