import TodoViewModels

extension WireType {
    /// The JSON Schema of a value of this shape; a named type is a reference
    /// to its own schema in `$defs`.
    var schema: JSONValue {
        switch self {
        case .string: ProtocolDescription.string
        case .integer: ProtocolDescription.integer
        case .boolean: ProtocolDescription.boolean
        case .enumeration(let values): ProtocolDescription.enumeration(values)
        case .array(let element): ProtocolDescription.array(element.schema)
        case .named(let name): ProtocolDescription.ref(name)
        case .nullable(let wrapped): ProtocolDescription.nullable(wrapped.schema)
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
