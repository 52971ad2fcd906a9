import CanonicalJSON

extension ProtocolDescription {
    /// The method table of PROTOCOL.md (between `<!-- methods:begin -->` and
    /// `<!-- methods:end -->`), written from `ProtocolMethods.all` so the
    /// document cannot fall behind the daemon: `todod --print-method-table`
    /// prints it, and a test checks that PROTOCOL.md holds exactly this.
    ///
    /// Parameters and results are written short: `"k"?` may be left out,
    /// `T or null` may be null, `[T]` is an array, a capitalised name is a
    /// type of the *Types* section; a method whose params say "none" takes none.
    public static var methodTable: String {
        var lines = [
            "| method | what it does | params | result | errors | in `transaction` |",
            "|--------|--------------|--------|--------|--------|------------------|",
        ]
        for method in ProtocolMethods.all {
            let params = method.paramsSchema == JSONSchema.empty ? "none" : "`\(shorthand(method.paramsSchema, expanding: true))`"
            let cells = [
                "`\(method.name)`", method.summary, params, "`\(shorthand(method.resultSchema, expanding: true))`",
                method.errors.map { "`\($0)`" }.joined(separator: ", "), method.isTransactable ? "yes" : "",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Enumerations of more values than this are written as `string`: the
    /// values belong to the type's own description.
    private static let enumerationValuesShown = 3

    /// A schema as one short line: `{"title": string, "due"?: DueDate}`.
    /// With `expanding`, a reference to an object type is written out (one
    /// level), as a method's own params and result are what the table is for.
    private static func shorthand(_ schema: JSONValue, expanding: Bool = false) -> String {
        guard case .object(let members) = schema else { return "any" }
        if case .string(let reference)? = members["$ref"] {
            let name = String(reference.split(separator: "/").last ?? "")
            if schema == JSONSchema.empty { return "{}" }
            if expanding, case .object(let referenced)? = types[name], referenced["properties"] != nil {
                return shorthand(.object(referenced))
            }
            return name
        }
        if case .array(let alternatives)? = members["anyOf"] ?? members["oneOf"] {
            return alternatives.map { shorthand($0) }.joined(separator: " or ")
        }
        if let constant = members["const"] { return literal(constant) }
        if case .array(let values)? = members["enum"], values.count <= enumerationValuesShown {
            return values.map(literal).joined(separator: " or ")
        }
        switch members["type"] {
        case .string("array")?:
            return "[\(members["items"].map { shorthand($0) } ?? "any")]"
        case .string("object")?:
            guard case .object(let properties)? = members["properties"] else { return "object" }
            let required = Set(JSONSchema.required(by: schema))
            let names = properties.keys.filter(required.contains).sorted() + properties.keys.filter { !required.contains($0) }.sorted()
            let fields = names.map { "\"\($0)\"\(required.contains($0) ? "" : "?"): \(shorthand(properties[$0]!))" }
            return "{\(fields.joined(separator: ", "))}"
        case .string(let type)?:
            return type
        default:
            return "any"
        }
    }

    private static func literal(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): "\"\(text)\""
        case .integer(let number): String(number)
        case .bool(let flag): String(flag)
        case .null: "null"
        default: "…"
        }
    }
}
