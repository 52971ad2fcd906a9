/// A wire type whose JSON Schema is made from its own coding keys: the
/// schema's property names are the keys `Codable` writes, and each key's
/// schema is said once, in a switch over the keys, from the Swift type of
/// its value where that type knows its shape (`WireTyped`). So a property
/// added to the type is a case the compiler asks a schema for, instead of a
/// name to spell again in a hand-written list beside it.
protocol KeyedSchema {
    associatedtype SchemaKey: CodingKey & CaseIterable
    /// The schema of the value written under `key`.
    static func schema(of key: SchemaKey) -> JSONValue
}

extension KeyedSchema {
    /// An object with exactly the type's keys, all required.
    static var objectSchema: JSONValue {
        JSONSchema.object(Dictionary(uniqueKeysWithValues: SchemaKey.allCases.map { ($0.stringValue, schema(of: $0)) }))
    }
}
