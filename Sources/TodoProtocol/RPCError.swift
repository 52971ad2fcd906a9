import TodoModel

/// A JSON-RPC error object, with a stable machine-readable name in `data.name`.
///
/// Codes follow JSON-RPC 2.0 (-32700 parse error, -32600 invalid request,
/// -32601 method not found, -32602 invalid params, -32603 internal error) and
/// todod's own range (-32001 and below). Programs branch on `data.name`, which
/// never changes once published; people read `message`, which says what to do.
public struct RPCError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    public var code: Int
    public var message: String
    public var data: Details?

    public struct Details: Hashable, Sendable, Codable {
        public var name: String
        /// In a `transaction`, the index (from 0) of the command that was refused.
        public var index: Int?
        /// For text that could not be read (a query, shorthand), where in it
        /// the problem is: an offset in characters from 0.
        public var position: Int?

        public init(name: String, index: Int? = nil, position: Int? = nil) {
            self.name = name
            self.index = index
            self.position = position
        }
    }

    public init(code: Int, name: String, message: String) {
        self.code = code
        self.message = message
        self.data = Details(name: name)
    }

    /// The stable name of the error, e.g. `todo.notFound`.
    public var name: String? { data?.name }

    public var description: String { message }
}

extension RPCError {
    public enum Code {
        public static let parseError = -32700
        public static let invalidRequest = -32600
        public static let methodNotFound = -32601
        public static let invalidParams = -32602
        public static let internalError = -32603
        public static let notFound = -32001
        public static let storageFailure = -32002
        public static let nothingToUndo = -32003
        public static let tooManyConnections = -32004
        public static let accessDenied = -32005
        public static let storeUnavailable = -32006
        public static let badConfiguration = -32007
    }

    public static func parseError(_ detail: String) -> RPCError {
        RPCError(code: Code.parseError, name: "protocol.parseError", message: "The line is not valid JSON: \(detail)")
    }

    public static func invalidRequest(_ detail: String) -> RPCError {
        RPCError(code: Code.invalidRequest, name: "protocol.invalidRequest", message: "Not a JSON-RPC 2.0 request: \(detail)")
    }

    public static func methodNotFound(_ method: String) -> RPCError {
        RPCError(
            code: Code.methodNotFound,
            name: "protocol.methodNotFound",
            message: "There is no method \"\(method)\". See Protocol/PROTOCOL.md for the methods todod serves."
        )
    }

    public static func invalidParams(_ detail: String) -> RPCError {
        RPCError(code: Code.invalidParams, name: "protocol.invalidParams", message: "Invalid parameters: \(detail)")
    }

    /// A query that could not be read, with where.
    public static func invalidQuery(_ error: QueryParseError) -> RPCError {
        var rpc = RPCError(code: Code.invalidParams, name: "todo.invalidQuery", message: "The query cannot be read \(error).")
        rpc.data?.position = error.position
        return rpc
    }

    /// Sort text that could not be read.
    public static func invalidSort(_ message: String) -> RPCError {
        RPCError(code: Code.invalidParams, name: "todo.invalidSort", message: "The sort cannot be read: \(message).")
    }

    public static func lineTooLong(limit: Int) -> RPCError {
        RPCError(
            code: Code.invalidRequest,
            name: "protocol.lineTooLong",
            message: "The request line is longer than the limit of \(limit) bytes; the connection will be closed."
        )
    }

    public static func lineTimeout(seconds: Double) -> RPCError {
        RPCError(
            code: Code.invalidRequest,
            name: "protocol.lineTimeout",
            message: "A request line was started but not finished within \(Self.worded(seconds)); the connection will be closed. End every request with a newline."
        )
    }

    public static func tooManyConnections(limit: Int) -> RPCError {
        RPCError(
            code: Code.tooManyConnections,
            name: "server.tooManyConnections",
            message: "todod already serves \(limit) connections, its limit; close some (each `todoctl watch` holds one) and try again."
        )
    }

    /// Sent instead of the greeting by a todod that cannot start (a
    /// todod.conf line it cannot use, a store that refuses it): it stays up
    /// to say why, so that clients retrying under socket activation neither
    /// restart it in a loop nor see only a vanished socket.
    public static func badConfiguration(_ reason: String) -> RPCError {
        RPCError(code: Code.badConfiguration, name: "server.badConfiguration", message: "todod will not start: \(reason)")
    }

    public static func accessDenied(uid: UInt32, owner: UInt32) -> RPCError {
        RPCError(
            code: Code.accessDenied,
            name: "server.accessDenied",
            message: "This todod belongs to user \(owner); connections from user \(uid) are refused."
        )
    }

    public static func unknownSubscription(_ id: Int) -> RPCError {
        RPCError(
            code: Code.invalidParams,
            name: "view.unknownSubscription",
            message: "This connection has no subscription \(id)."
        )
    }

    public static func unknownProperty(_ name: String, known: [String]) -> RPCError {
        RPCError(
            code: Code.invalidParams,
            name: "view.unknownProperty",
            message: "There is no property \"\(name)\"; the properties are \(known.joined(separator: ", "))."
        )
    }

    /// The error of a command inside a transaction, naming its index.
    public func inTransaction(at index: Int) -> RPCError {
        var error = self
        // Most refusals say so already ("…; nothing was changed.").
        let saysSo = message.lowercased().contains("nothing was changed")
        error.message = "Command \(index) of the transaction: \(message)" + (saysSo ? "" : " Nothing was changed.")
        error.data = Details(name: data?.name ?? "protocol.invalidParams", index: index, position: data?.position)
        return error
    }

    static func worded(_ seconds: Double) -> String {
        seconds == 1 ? "1 second" : seconds == seconds.rounded() ? "\(Int(seconds)) seconds" : "\(seconds) seconds"
    }

    public static func internalError(_ detail: String) -> RPCError {
        RPCError(code: Code.internalError, name: "server.internalError", message: "todod failed: \(detail)")
    }

    /// Staging more import text would pass `limit` bytes (`what`: "this
    /// connection's", "all connections'"); the staged text is dropped.
    public static func importTooLarge(limit: Int, what: String) -> RPCError {
        RPCError(
            code: Code.invalidParams, name: "todo.importTooLarge",
            message: "The import is too large: \(what) staged text may be at most \(limit >> 20) MiB. Nothing was imported; split the file.")
    }

    public static func storageFailure(_ detail: String) -> RPCError {
        RPCError(
            code: Code.storageFailure,
            name: "store.writeFailed",
            message: "The change could not be stored, so it was not made: \(detail)"
        )
    }

    /// The shared store (PostgreSQL) cannot be reached: the change was not
    /// made. Reads go on from memory; the daemon reconnects by itself.
    public static func storeUnavailable(_ detail: String) -> RPCError {
        RPCError(
            code: Code.storeUnavailable,
            name: "store.unavailable",
            message: "The change was not made: \(detail). Reads are served from memory until it is back."
        )
    }

    /// The protocol form of a refused to-do command.
    public init(_ error: TodoError) {
        switch error {
        case .blankTitle, .titleTooLong, .titleHasControlCharacters:
            self.init(code: Code.invalidParams, name: "todo.invalidTitle", message: error.description)
        case .notFound:
            self.init(code: Code.notFound, name: "todo.notFound", message: error.description)
        case .nothingToUndo:
            self.init(code: Code.nothingToUndo, name: "todo.nothingToUndo", message: error.description)
        case .nothingToRedo:
            self.init(code: Code.nothingToUndo, name: "todo.nothingToRedo", message: error.description)
        case .undoInTransaction:
            self.init(code: Code.invalidParams, name: "transaction.undoNotAllowed", message: error.description)
        case .unreadableStep:
            self.init(code: Code.nothingToUndo, name: "todo.unreadableStep", message: error.description)
        case .invalidDate:
            self.init(code: Code.invalidParams, name: "todo.invalidDueDate", message: error.description)
        case .invalidRecurrence:
            self.init(code: Code.invalidParams, name: "todo.invalidRecurrence", message: error.description)
        case .invalidShorthand(let shorthand):
            self.init(code: Code.invalidParams, name: "todo.invalidShorthand", message: error.description)
            data?.position = shorthand.position
        case .blankNote, .noteTooLong, .noteHasControlCharacters:
            self.init(code: Code.invalidParams, name: "todo.invalidNote", message: error.description)
        case .noteNotFound:
            self.init(code: Code.notFound, name: "todo.noteNotFound", message: error.description)
        case .invalidQuery:
            self.init(code: Code.invalidParams, name: "todo.invalidQuery", message: error.description)
        case .invalidSort:
            self.init(code: Code.invalidParams, name: "todo.invalidSort", message: error.description)
        case .viewNotFound:
            self.init(code: Code.notFound, name: "view.notFound", message: error.description)
        case .invalidViewName:
            self.init(code: Code.invalidParams, name: "view.invalidName", message: error.description)
        case .mainViewIsPermanent:
            self.init(code: Code.invalidParams, name: "view.mainIsPermanent", message: error.description)
        case .tooManyTags, .tooManyNotes:
            self.init(code: Code.invalidParams, name: "todo.tooMany", message: error.description)
        case .tooManyViews:
            self.init(code: Code.invalidParams, name: "view.tooMany", message: error.description)
        case .invalidImport:
            self.init(code: Code.invalidParams, name: "todo.invalidImport", message: error.description)
        case .importOutdated:
            self.init(code: Code.invalidParams, name: "todo.importOutdated", message: error.description)
        case .invalidLink:
            self.init(code: Code.invalidParams, name: "todo.invalidLink", message: error.description)
        case .inWord(let word, let inner):
            self.init(inner)
            message = error.description
            data?.position = word.position
        }
    }
}
