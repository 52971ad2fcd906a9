/// As `JSONValue.encode(to:)` writes it, objects with their keys sorted: an
/// event's `properties` are JSON values, and the event is written by hand
/// (`ChangeBody+JSONWritable.swift`).
extension JSONValue: JSONWritable {
    public func writeJSON(into bytes: inout [UInt8]) throws {
        switch self {
        case .null: bytes.appendJSONNull()
        case .bool(let value): bytes.appendJSONBool(value)
        case .integer(let value): bytes.appendJSONInteger(value)
        case .double(let value): try bytes.appendJSONNumber(value)
        // Decimal's description is its digits, with no exponent: valid JSON.
        case .decimal(let value): bytes.append(contentsOf: value.description.utf8)
        case .string(let value): bytes.appendJSONString(value)
        case .array(let elements):
            try bytes.appendJSONArray(elements) { element, bytes in try element.writeJSON(into: &bytes) }
        case .object(let members):
            try bytes.appendJSONObject(members) { member, bytes in try member.writeJSON(into: &bytes) }
        }
    }
}
