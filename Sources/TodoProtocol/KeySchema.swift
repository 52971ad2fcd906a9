import CanonicalJSON

/// What a `KeyedSchema` type says about one of its keys: the schema of the
/// value written under it, and whether every value has the key. Each key
/// says both in the same `switch` case, so a key cannot have a schema and
/// forget whether it may be left out, nor the other way round.
struct KeySchema {
    let schema: JSONValue
    /// False for a key `Codable` leaves out when its (Optional) value is nil.
    /// A property that is always written, even as `null` (`ExplicitNull`),
    /// is required: its schema says it may be null.
    let isRequired: Bool

    /// A key every value has.
    static func required(_ schema: JSONValue) -> KeySchema { KeySchema(schema: schema, isRequired: true) }
    /// A key left out when its value is absent: an Optional property.
    static func optional(_ schema: JSONValue) -> KeySchema { KeySchema(schema: schema, isRequired: false) }
}
