import TodoModel
import TodoViewState

/// A named view as `view.list` shows it.
public struct NamedView: Hashable, Sendable {
    public var name: String
    public var definition: ViewDefinition
    public var properties: TodoListProperties

    public init(name: String, definition: ViewDefinition, properties: TodoListProperties) {
        self.name = name
        self.definition = definition
        self.properties = properties
    }
}
