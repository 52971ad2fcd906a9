import CanonicalJSON
import TodoViewState

/// The JSON Schema of a row, made from `TodoRow.keys`: each key's shape
/// gives its type, its meaning the description, and the keys a row may
/// leave out are the optional ones.
enum RowSchema {
    static let schema: JSONValue = JSONSchema.open(
        JSONSchema.object(
            Dictionary(uniqueKeysWithValues: TodoRow.keys.map { ($0.name, described(type(of: $0.value), $0.meaning)) }),
            optional: Set(TodoRow.keys.filter { !$0.isAlwaysPresent }.map(\.name)),
            description:
                "One row of a list view: texts worded for display, and the item's fields as data (dates ISO 8601). Fields are added, never renamed, within 1.x: ignore those you do not know."
        ))

    private static func type(of value: RowKey.Value) -> JSONValue {
        switch value {
        case .text: JSONSchema.string
        case .textOrNull(_, let allowed): JSONSchema.nullable(allowed.isEmpty ? JSONSchema.string : JSONSchema.enumeration(allowed))
        case .flag: JSONSchema.boolean
        case .trueOrAbsent: ["const": true]
        case .count: ["type": "integer", "minimum": 0]
        case .id: JSONSchema.itemID
        case .levelOrAbsent: ["type": "integer", "minimum": 1]
        case .texts: JSONSchema.array(JSONSchema.string)
        case .fieldValues:
            ["type": "object", "additionalProperties": ["oneOf": [JSONSchema.string, ["type": "number"], JSONSchema.array(JSONSchema.itemID)]]]
        case .fieldTexts: ["type": "object", "additionalProperties": JSONSchema.string]
        }
    }

    private static func described(_ schema: JSONValue, _ meaning: String) -> JSONValue {
        guard case .object(var members) = schema else { return schema }
        members["description"] = .string(meaning)
        return .object(members)
    }
}
