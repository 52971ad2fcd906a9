import CanonicalJSON
import Foundation
import Testing
@testable import TodoProtocol

/// Each method's parameters and result schemas say what its Swift types
/// read and write: the same keys, and the same keys required. Checked from
/// the types' side, not by reading the schema's source: a value with every
/// key the schema lists is decoded, written again, and its keys and stored
/// properties compared with the schema's; then each key is left out in turn,
/// and the type either refuses that (or writes the key anyway, as null):
/// required; or accepts it and leaves it out: optional.
@Suite struct MethodSchemaMatchesTypesTests {
    @Test(arguments: ProtocolMethods.names)
    func paramsAndResultHaveTheKeysTheirSchemasList(_ name: String) throws {
        let method: any RPCMethod.Type = try #require(ProtocolMethods.all.first { $0.name == name })
        try checkTypes(of: method)
    }

    private func checkTypes<M: RPCMethod>(of method: M.Type) throws {
        try check(M.Params.self, against: M.paramsSchema, "\(M.name).params")
        try check(M.Result.self, against: M.resultSchema, "\(M.name).result")
    }

    /// The checks would pass on nothing if no method had keys: make sure they see some.
    @Test func theChecksSeeRequiredAndOptionalKeys() throws {
        #expect(try keys(of: AddTodo.Params.self, against: AddTodo.paramsSchema)?.optional == ["due", "text", "title"])
        #expect(try keys(of: SetTodoDue.Params.self, against: SetTodoDue.paramsSchema)?.required == ["due", "id"])
        #expect(try keys(of: ListViews.Result.self, against: ListViews.resultSchema)?.required == ["views"])
    }

    private func check<T: Codable>(_ type: T.Type, against schema: JSONValue, _ definition: String) throws {
        guard let found = try keys(of: type, against: schema) else { return }
        let object = try #require(JSONSchema.resolved(schema).objectMembers)
        let listed = try #require(object["properties"]?.objectMembers).keys.sorted()
        #expect(found.written == listed, "\(definition): written keys")
        if let stored = found.stored { #expect(stored == listed, "\(definition): stored properties") }
        #expect(found.required == JSONSchema.required(by: schema).sorted(), "\(definition): required keys")
        #expect(found.optional == listed.filter { !JSONSchema.required(by: schema).contains($0) }, "\(definition): optional keys")
    }

    private struct FoundKeys {
        var written: [String]
        /// The stored properties' names (`_name` of a wrapped one as `name`); nil for what is not a struct.
        var stored: [String]?
        var required: [String]
        var optional: [String]
    }

    /// What `type` does with a full value of `schema`; nil when the schema
    /// does not list properties (a free-form result).
    private func keys<T: Codable>(of type: T.Type, against schema: JSONValue) throws -> FoundKeys? {
        guard case .object(let properties)? = JSONSchema.resolved(schema).objectMembers?["properties"] else { return nil }
        guard case .object(let full) = try Sample.value(of: schema) else { return nil }
        let value = try decode(T.self, from: .object(full))
        let mirror = Mirror(reflecting: value)
        var found = FoundKeys(
            written: try written(value).keys.sorted(),
            stored: mirror.displayStyle == .struct
                ? mirror.children.compactMap { $0.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 } }.sorted() : nil,
            required: [], optional: [])
        for key in properties.keys.sorted() {
            var partial = full
            partial[key] = nil
            guard let value = try? decode(T.self, from: .object(partial)) else {
                found.required.append(key)
                continue
            }
            if try written(value)[key] == nil { found.optional.append(key) } else { found.required.append(key) }
        }
        return found
    }

    private func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
    }

    private func written<T: Encodable>(_ value: T) throws -> [String: JSONValue] {
        try #require(JSONValue(parsing: Array(JSONEncoder().encode(value))).objectMembers)
    }
}

extension JSONValue {
    fileprivate var objectMembers: [String: JSONValue]? { if case .object(let members) = self { members } else { nil } }
}

/// A value a schema accepts, with every property an object may have: the
/// first choice of each choice, one element in each array.
private enum Sample {
    struct Unsupported: Error { var schema: JSONValue }

    static func value(of schema: JSONValue) throws -> JSONValue {
        guard let members = JSONSchema.resolved(schema).objectMembers else { throw Unsupported(schema: schema) }
        if let constant = members["const"] { return constant }
        if case .array(let values)? = members["enum"], let first = values.first { return first }
        for choice in ["anyOf", "oneOf"] {
            if case .array(let alternatives)? = members[choice],
                let first = alternatives.first(where: { $0 != ["type": "null"] })
            {
                return try value(of: first)
            }
        }
        switch members["type"] ?? .null {
        case "string":
            // The one pattern among the schemas: a sort.
            return members["pattern"] == nil ? "x" : "due"
        case "integer":
            if case .integer(let minimum)? = members["minimum"] { return .integer(minimum) }
            return 1
        case "number": return 1
        case "boolean": return true
        case "array": return .array([try value(of: members["items"] ?? [:])])
        case "object":
            guard case .object(let properties)? = members["properties"] else { return [:] }
            return .object(try properties.mapValues(value(of:)))
        case .array(let types): return try value(of: ["type": types.first ?? "string"])
        default: throw Unsupported(schema: schema)
        }
    }
}
