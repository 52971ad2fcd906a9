import CanonicalJSON
import Foundation
import Testing
import TodoProtocol
import TodoViewState

/// Every key the schema requires is on the wire even when its value is nil:
/// PROTOCOL.md promises "a missing value is `null`, never an absent key".
/// An optional field written without `@ExplicitNull` (or a property without
/// a declaration) drops off the wire when nil, and fails here.
@Suite struct ExplicitNullWireTests {
    /// Each wire type that has nullable fields, with every optional nil,
    /// under the name of its schema in `$defs`.
    static let samples: [(definition: String, line: @Sendable () throws -> Data)] = [
        ("TodoRow", { try encode(TodoRow(id: 1, title: "a", done: false, createdText: "created today")) }),
        ("TodoListProperties", { try encode(properties) }),
        ("WatchedState", { try encode(WatchedState(properties: [:], rows: nil)) }),
        ("Cause", { try encode(Cause(connection: 1, request: nil)) }),
        ("ChangeBody", { try encode(body) }),
        ("CommandResult", { try encode(CommandResult(done: nil)) }),
        ("ErrorResponse", { MessageEncoding.error(id: nil, .parseError("not JSON")) }),
        ("todo.setDue.params", { try encode(SetTodoDue.Params(id: 1, due: nil)) }),
        ("transaction.result", { try encode(Transaction.Result(results: [.init(id: nil, item: nil, done: nil)], done: nil)) }),
        (
            "todo.import.result",
            { try encode(ImportTodos.Result(staged: 0, items: [.init(action: "skip", id: nil, title: "t", source: "line 1", remarks: [])])) },
        ),
        (
            "sync.apply.result",
            { try encode(ApplySync.Result(added: 0, updated: 0, removed: 0, skipped: [], done: nil)) }
        ),
        ("todo.export.result", { try encode(ExportTodos.Result(text: "", count: 0, cursor: nil)) }),
        (
            "server.status.result",
            {
                try encode(
                    ServerStatus.Result(
                        server: "todod", protocol: "1.0", epoch: "e", revision: 0, items: 0, connections: 0, subscriptions: 0,
                        uptimeSeconds: 0, dataFile: "/x", list: "l", store: "sqlite", instance: nil))
            }
        ),
        (
            "view.subscribe.result",
            {
                try encode(
                    SubscribeListView.Result(
                        subscription: 1, epoch: "e", revision: 1, mode: .replay, state: nil, replay: [body], reason: nil))
            }
        ),
        (
            "view.subscribe.result",
            {
                try encode(
                    SubscribeListView.Result(
                        subscription: 1, epoch: "e", revision: 1, mode: .snapshot, state: WatchedState(properties: [:], rows: nil)))
            }
        ),
        ("view.changed.params", { try encode(ListViewChanged.Params(subscription: 1, body: body)) }),
        (
            "NamedView",
            {
                try encode(
                    NamedViewSummary(
                        name: "x", query: "", filter: .all, sort: .created, grouping: nil, itemsLeft: "", activeCount: 0,
                        overdueCount: 0, dueTodayCount: 0))
            }
        ),
    ]

    static let properties = TodoListProperties(
        filter: .all, query: "", sort: .created, itemsLeft: "0 items left", activeCount: 0, completedCount: 0, totalCount: 0,
        allDone: false, canClearCompleted: false, emptyText: nil, canUndo: false, undoText: nil, canRedo: false, redoText: nil)
    static let body = ChangeBody(revision: 1, properties: [:], rows: [], cause: nil)

    static func encode(_ value: some Encodable) throws -> Data { try JSONEncoder().encode(value) }

    static let definitions: [String: JSONValue] = {
        guard case .object(let document) = ProtocolDescription.document, case .object(let definitions) = document["$defs"]
        else { return [:] }
        return definitions
    }()

    @Test(arguments: 0..<samples.count)
    func everyRequiredKeyIsWrittenWhenItsValueIsNil(sample: Int) throws {
        let (definition, line) = Self.samples[sample]
        let schema = try #require(Self.definitions[definition], "no schema \(definition)")
        let value = try JSONDecoder().decode(JSONValue.self, from: line())
        #expect(Self.missingKeys(in: value, schema: schema, at: definition) == [])
    }

    /// A new type (or a new nullable field of an old one) whose schema
    /// requires a nullable key needs a sample above.
    @Test func everySchemaWithARequiredNullableKeyHasASample() {
        let sampled = Set(Self.samples.map(\.definition))
        let needing = Self.definitions.filter { Self.requiresANullableKey($0.value) }.keys
        #expect(Set(needing).subtracting(sampled).sorted() == [])
        #expect(sampled.subtracting(needing).sorted() == [])
    }

    /// The keys `schema` requires that `value` lacks, at any depth, as paths.
    static func missingKeys(in value: JSONValue, schema: JSONValue, at path: String) -> [String] {
        guard case .object(let schema) = schema else { return [] }
        if case .string(let reference) = schema["$ref"] {
            let name = String(reference.dropFirst("#/$defs/".count))
            return missingKeys(in: value, schema: definitions[name] ?? [:], at: path)
        }
        if case .array(let branches) = schema["anyOf"] {
            guard value != .null else { return [] }
            return branches.filter { $0 != ["type": "null"] }.flatMap { missingKeys(in: value, schema: $0, at: path) }
        }
        switch value {
        case .object(let members):
            var missing: [String] = []
            if case .array(let required) = schema["required"] {
                for case .string(let key) in required where members[key] == nil { missing.append("\(path).\(key)") }
            }
            if case .object(let properties) = schema["properties"] {
                for (key, member) in members {
                    if let property = properties[key] { missing += missingKeys(in: member, schema: property, at: "\(path).\(key)") }
                }
            }
            return missing
        case .array(let elements):
            guard let items = schema["items"] else { return [] }
            return elements.enumerated().flatMap { missingKeys(in: $1, schema: items, at: "\(path)[\($0)]") }
        default:
            return []
        }
    }

    /// Whether `schema`, itself or nested (not through references), is an
    /// object that requires a key whose value may be null.
    static func requiresANullableKey(_ schema: JSONValue) -> Bool {
        switch schema {
        case .object(let members):
            if case .array(let required) = members["required"], case .object(let properties) = members["properties"] {
                for case .string(let key) in required {
                    if case .array(let branches) = properties[key]?.member("anyOf"), branches.contains(["type": "null"]) { return true }
                }
            }
            return members.values.contains(where: requiresANullableKey)
        case .array(let elements):
            return elements.contains(where: requiresANullableKey)
        default:
            return false
        }
    }
}

extension JSONValue {
    fileprivate func member(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }
}
