import CanonicalJSON
import TodoViewState

extension WireType {
    /// The JSON Schema of a value of this shape; a named type is a reference
    /// to its own schema in `$defs`.
    var schema: JSONValue {
        switch self {
        case .string: JSONSchema.string
        case .integer: JSONSchema.integer
        case .boolean: JSONSchema.boolean
        case .enumeration(let values): JSONSchema.enumeration(values)
        case .array(let element): JSONSchema.array(element.schema)
        case .named(let name): JSONSchema.ref(name)
        case .nullable(let wrapped): JSONSchema.nullable(wrapped.schema)
        }
    }
}

extension ViewModelProperties {
    /// Each property's JSON Schema by name, its doc line as the description:
    /// what `rpc.describe` and Protocol/schema say about the properties.
    static var propertySchemas: [String: JSONValue] {
        var schemas: [String: JSONValue] = [:]
        for property in declarations {
            guard case .object(var schema) = property.wireType.schema else { preconditionFailure("a schema is an object") }
            schema["description"] = .string(property.doc)
            schemas[property.name] = .object(schema)
        }
        return schemas
    }
}
