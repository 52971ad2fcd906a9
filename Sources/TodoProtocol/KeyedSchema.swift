import CanonicalJSON

/// A wire type whose JSON Schema is made from its own coding keys: the
/// schema's property names are the keys `Codable` writes, and each key's
/// schema, and whether it may be left out, is said once, in a switch over
/// the keys, from the Swift type of its value where that type knows its
/// shape (`WireTyped`). So a property added to the type is a case the
/// compiler asks a schema for, instead of a name to spell again in a
/// hand-written list beside it. (`ProtocolMethodsTests` checks each method's
/// schema against what its types decode and encode.)
protocol KeyedSchema {
    associatedtype SchemaKey: CodingKey & CaseIterable
    /// The schema of the value written under `key`, and whether it is required.
    static func schema(of key: SchemaKey) -> KeySchema
}

extension KeyedSchema {
    /// An object with exactly the type's keys; those whose values may be
    /// absent are optional.
    static var objectSchema: JSONValue { objectSchema(description: nil) }

    static func objectSchema(description: String?) -> JSONValue {
        var properties: [String: JSONValue] = [:]
        var optional: Set<String> = []
        for key in SchemaKey.allCases {
            let keySchema = schema(of: key)
            properties[key.stringValue] = keySchema.schema
            if !keySchema.isRequired { optional.insert(key.stringValue) }
        }
        return JSONSchema.object(properties, optional: optional, description: description)
    }
}
