import CanonicalJSON

/// Building blocks of the JSON Schemas (draft 2020-12) the protocol is
/// described in. Each method declares its parameters and result with them
/// next to its Swift types, and `ProtocolDescription` assembles the rest;
/// keeping one vocabulary keeps `rpc.describe`'s document uniform.
enum JSONSchema {
    /// A reference to a schema in the document's `$defs`.
    static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/$defs/\(name)")] }
    static func nullable(_ schema: JSONValue) -> JSONValue { ["anyOf": [schema, ["type": "null"]]] }
    static let string: JSONValue = ["type": "string"]
    static let integer: JSONValue = ["type": "integer"]
    static let boolean: JSONValue = ["type": "boolean"]
    static func array(_ items: JSONValue) -> JSONValue { ["type": "array", "items": items] }
    static func enumeration(_ values: [String]) -> JSONValue { ["type": "string", "enum": .array(values.map(JSONValue.string))] }

    /// An object with exactly these properties; all required unless listed as optional.
    static func object(_ properties: [String: JSONValue], optional: Set<String> = [], description: String? = nil) -> JSONValue {
        var schema: [String: JSONValue] = [
            "type": "object",
            "properties": .object(properties),
            "required": .array(properties.keys.filter { !optional.contains($0) }.sorted().map(JSONValue.string)),
            "additionalProperties": false,
        ]
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }

    /// An object schema that also allows properties it does not list: for
    /// what the daemon sends, which may gain fields within 1.x.
    static func open(_ schema: JSONValue) -> JSONValue {
        guard case .object(var members) = schema else { return schema }
        members["additionalProperties"] = true
        return .object(members)
    }

    // MARK: Values several methods share

    /// An item's id: items are numbered from 1.
    static let itemID: JSONValue = ["type": "integer", "minimum": 1]
    /// A date as people type it (`$defs` `DueDate`).
    static let dueDate = ref("DueDate")
    /// A shared view's name.
    static let viewName: JSONValue = ["type": "string", "minLength": 1, "maxLength": 64]
    /// The parameters of a method that takes none, and the result of one that returns nothing.
    static let empty = ref("Empty")

    // MARK: Reading

    /// `schema`, or the shared type it refers to (`ProtocolDescription.types`).
    static func resolved(_ schema: JSONValue) -> JSONValue {
        guard case .object(let members) = schema, case .string(let reference)? = members["$ref"],
            let name = reference.split(separator: "/").last, let referenced = ProtocolDescription.types[String(name)]
        else { return schema }
        return referenced
    }

    /// The property names of an object schema (or of the type it refers to), alphabetically.
    static func propertyNames(of schema: JSONValue) -> [String] {
        guard case .object(let object) = resolved(schema), case .object(let properties)? = object["properties"] else { return [] }
        return properties.keys.sorted()
    }

    /// The properties an object schema (or the type it refers to) requires.
    static func required(by schema: JSONValue) -> [String] {
        guard case .object(let object) = resolved(schema), case .array(let names)? = object["required"] else { return [] }
        return names.compactMap { if case .string(let name) = $0 { name } else { nil } }
    }
}
