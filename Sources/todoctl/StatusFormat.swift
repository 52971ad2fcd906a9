import ArgumentParser
import CanonicalJSON
import TodoProtocol
import TodoViewState

/// A one-line template for status bars: `{itemsLeft} · {overdueCount} overdue`.
///
/// Each `{name}` is a view-model property; `watch --format` subscribes to
/// those properties only, so todod sends nothing else, and prints the line
/// again whenever one of them changes.
struct StatusFormat: Sendable {
    enum Part: Sendable {
        case text(String)
        case property(String)
    }

    let parts: [Part]

    init(_ template: String) throws {
        var parts: [Part] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw ValidationError("--format: \"{\" without a closing \"}\"")
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard TodoListProperties.names.contains(name) else {
                throw ValidationError(
                    "--format: {\(name)} is not a view property; known: \(TodoListProperties.names.map { "{\($0)}" }.joined(separator: " "))")
            }
            parts.append(.property(name))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        self.parts = parts
    }

    /// The properties the template names, each once.
    var properties: [String] {
        var names: [String] = []
        for case .property(let name) in parts where !names.contains(name) { names.append(name) }
        return names
    }

    /// The line for these property values.
    func line(_ values: [String: JSONValue]) -> String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .property(let name): Self.text(of: values[name] ?? .null)
            }
        }.joined()
    }

    /// A value as a status bar shows it: strings bare, null empty, counts
    /// per name as `home 2, work 1`.
    static func text(of value: JSONValue) -> String {
        switch value {
        case .null: ""
        case .bool(let flag): String(flag)
        case .integer(let number): String(number)
        case .double(let number): String(number)
        case .decimal(let number): number.description
        case .string(let text): text
        case .array(let elements): elements.map(text(of:)).joined(separator: ", ")
        case .object(let members):
            if case .string(let name)? = members["name"], let count = members["count"] {
                "\(name) \(text(of: count))"
            } else if case .string(let message)? = members["message"] {
                message
            } else {
                members.keys.sorted().map { "\($0): \(text(of: members[$0]!))" }.joined(separator: ", ")
            }
        }
    }
}
