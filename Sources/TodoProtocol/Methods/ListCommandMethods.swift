import CanonicalJSON
import TodoViewState

// The commands on the whole list, and undo and redo. Each is one undo step
// (undo and redo take one back or bring one back) and takes no parameters.

/// `todo.toggleAll`: if any item is active all become done, otherwise all become active. One undo step.
public enum ToggleAll: RPCMethod {
    public static let name = "todo.toggleAll"
    public static let summary = "If any item is active all become done, otherwise all become active."
    public typealias Params = NoParams
    public typealias Result = CommandResult
    public static var resultSchema: JSONValue { CommandResult.schema }
    public static let errors = commandErrors
    public static let isTransactable = true
}

/// `todo.clearCompleted`: deletes every done item. One undo step.
public enum ClearCompleted: RPCMethod {
    public static let name = "todo.clearCompleted"
    public static let summary = "Deletes every done item."
    public typealias Params = NoParams
    public typealias Result = CommandResult
    public static var resultSchema: JSONValue { CommandResult.schema }
    public static let errors = commandErrors
    public static let isTransactable = true
}

/// `todo.undo`: undoes the newest command not yet undone (`todo.nothingToUndo` if none).
/// Never part of a `transaction` (`transaction.undoNotAllowed`): it is sent on its own.
public enum Undo: RPCMethod {
    public static let name = "todo.undo"
    public static let summary = "Undoes the newest command not yet undone."
    public typealias Params = NoParams
    public typealias Result = CommandResult
    public static var resultSchema: JSONValue { CommandResult.schema }
    public static let errors = ["todo.nothingToUndo", "todo.unreadableStep"] + commandErrors
}

/// `todo.redo`: redoes the newest undone command (`todo.nothingToRedo` if none).
/// Never part of a `transaction`, like `todo.undo`.
public enum Redo: RPCMethod {
    public static let name = "todo.redo"
    public static let summary = "Redoes the newest undone command."
    public typealias Params = NoParams
    public typealias Result = CommandResult
    public static var resultSchema: JSONValue { CommandResult.schema }
    public static let errors = ["todo.nothingToRedo", "todo.unreadableStep"] + commandErrors
}

/// The result of a command that is not about one item: what it did, worded
/// as undo and redo say it ("mark all done", "clear 2 completed items"), or
/// null when it changed nothing.
public struct CommandResult: Codable, Hashable, Sendable, KeyedSchema {
    @ExplicitNull public var done: String?
    public init(done: String?) { self.done = done }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case done
    }

    static func schema(of key: CodingKeys) -> KeySchema {
        switch key {
        case .done: .required(String?.wireType.schema)
        }
    }

    /// Its schema is one of the shared types, as several methods return it.
    static let schema = JSONSchema.ref("CommandResult")
}
