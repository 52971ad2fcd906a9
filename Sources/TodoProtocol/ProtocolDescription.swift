import CanonicalJSON
import TodoViewState

/// The protocol described by itself, as one JSON Schema (draft 2020-12)
/// document: `rpc.describe` answers with it, and
/// `Protocol/schema/todod.schema.json` is it, written out (`todod
/// --print-schema`; a test checks that the file and the daemon agree).
///
/// `$defs` holds a schema for every type, every request (`request.NAME`),
/// every response (`response.NAME`), every notification
/// (`notification.NAME`), and `ClientMessage` / `ServerMessage` for any line
/// either side may send. `methods`, `notifications`, `viewModels` and
/// `errors` index them for people and for code that wants to introspect.
/// The methods are those of `ProtocolMethods.all`, each as it declares itself.
public enum ProtocolDescription {
    public static let document: JSONValue = {
        var defs = types
        var methodIndex: [String: JSONValue] = [:]
        for method in ProtocolMethods.all {
            defs["\(method.name).params"] = method.paramsSchema
            defs["\(method.name).result"] = method.resultSchema
            defs["request.\(method.name)"] = request(method.name, paramsRequired: !method.paramsMayBeOmitted)
            defs["response.\(method.name)"] = response(method.name)
            methodIndex[method.name] = [
                "summary": .string(method.summary),
                "params": JSONSchema.ref("\(method.name).params"),
                "result": JSONSchema.ref("\(method.name).result"),
                "errors": .array(method.errors.map(JSONValue.string)),
            ]
        }
        var notificationIndex: [String: JSONValue] = [:]
        for notification in notifications {
            defs["\(notification.name).params"] = notification.params
            defs["notification.\(notification.name)"] = JSONSchema.object(
                [
                    "jsonrpc": ["const": "2.0"], "method": ["const": .string(notification.name)],
                    "params": JSONSchema.ref("\(notification.name).params"),
                ])
            notificationIndex[notification.name] = [
                "summary": .string(notification.summary), "params": JSONSchema.ref("\(notification.name).params"),
            ]
        }
        defs["ErrorResponse"] = JSONSchema.object([
            "jsonrpc": ["const": "2.0"], "id": JSONSchema.nullable(JSONSchema.ref("RequestID")), "error": JSONSchema.ref("Error"),
        ])
        defs["ClientMessage"] = ["oneOf": .array(ProtocolMethods.all.map { JSONSchema.ref("request.\($0.name)") })]
        let anyResponse = JSONSchema.object(["jsonrpc": ["const": "2.0"], "id": JSONSchema.ref("RequestID"), "result": [:]])
        defs["ServerMessage"] = [
            "description":
                "Any line todod sends: a response (its result is checked against response.METHOD by whoever knows the method), an error, a notification, or the replies to a batch.",
            "oneOf": .array(
                [anyResponse, JSONSchema.ref("ErrorResponse")]
                    + notifications.map { JSONSchema.ref("notification.\($0.name)") }
                    + [["type": "array", "minItems": 1, "items": ["oneOf": [anyResponse, JSONSchema.ref("ErrorResponse")]]]]),
        ]
        var errorIndex: [String: JSONValue] = [:]
        for error in errors {
            errorIndex[error.name] = ["code": .integer(Int64(error.code)), "when": .string(error.when)]
        }
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "urn:todod:protocol:1",
            "title": "The todod protocol",
            "description": "JSON-RPC 2.0 over a Unix socket, one compact JSON object per line. See PROTOCOL.md.",
            "protocol": .string(ServerHello.protocolVersion),
            "methods": .object(methodIndex),
            "notifications": .object(notificationIndex),
            "viewModels": viewModels,
            "errors": .object(errorIndex),
            "$defs": .object(defs),
        ]
    }()

    // MARK: Messages

    static func request(_ method: String, paramsRequired: Bool) -> JSONValue {
        JSONSchema.object(
            [
                "jsonrpc": ["const": "2.0"], "id": JSONSchema.ref("RequestID"), "method": ["const": .string(method)],
                "params": JSONSchema.ref("\(method).params"),
            ],
            optional: paramsRequired ? ["id"] : ["id", "params"])
    }

    static func response(_ method: String) -> JSONValue {
        JSONSchema.object(["jsonrpc": ["const": "2.0"], "id": JSONSchema.ref("RequestID"), "result": JSONSchema.ref("\(method).result")])
    }

    // MARK: Types

    /// The list view model's properties, from their declarations.
    static let propertySchemas = TodoListProperties.propertySchemas

    static let types: [String: JSONValue] = [
        "RequestID": ["type": ["string", "number", "null"]],
        "Error": JSONSchema.object(
            [
                "code": JSONSchema.integer, "message": JSONSchema.string,
                "data": JSONSchema.object(
                    ["name": JSONSchema.string, "index": JSONSchema.integer, "position": JSONSchema.integer], optional: ["index", "position"]),
            ],
            description:
                "data.name is stable; message is for people. data.index names the refused command of a transaction; data.position where in a query or shorthand text the problem is."
        ),
        "TodoRow": RowSchema.schema,
        "NameCount": JSONSchema.object(["name": JSONSchema.string, "count": JSONSchema.integer]),
        "NamedView": JSONSchema.open(NamedViewSummary.objectSchema),
        "ItemDetails": JSONSchema.open(ItemDetails.objectSchema),
        "ListSort": [
            "type": "string",
            "pattern": "^[a-z]+[+-]?(,[a-z]+[+-]?)*$",
            "description": "Sort keys separated by commas, each optionally followed by + (its usual direction) or - (reversed): priority,due-. A key is created, modified, title, due, priority, project, urgency, or a declared field's name (scheduled, until, those todod.conf declares).",
        ],
        "ReminderAlert": JSONSchema.object([
            "id": JSONSchema.integer, "condition": JSONSchema.enumeration(ReminderAlert.Condition.allCases.map(\.rawValue)),
            "message": JSONSchema.string,
        ]),
        "DesktopReminder": JSONSchema.object(
            [
                "id": JSONSchema.integer, "condition": JSONSchema.enumeration(ReminderAlert.Condition.allCases.map(\.rawValue)),
                "summary": JSONSchema.string, "body": JSONSchema.string,
                "urgency": JSONSchema.enumeration(DesktopReminder.Urgency.allCases.map(\.rawValue)),
            ], description: "A reminder that belongs on the desktop now, worded for a notification."),
        "TodoListProperties": JSONSchema.open(JSONSchema.object(propertySchemas, description: "A list view's values besides its rows.")),
        "TodoListState": JSONSchema.object(["properties": JSONSchema.ref("TodoListProperties"), "rows": JSONSchema.array(JSONSchema.ref("TodoRow"))]),
        "WatchedState": WatchedState.objectSchema(
            description: "A subscription's state: its watched properties, and its rows (null unless rows are watched)."),
        "RowEdit": [
            "oneOf": [
                JSONSchema.object(["op": ["const": "insert"], "index": JSONSchema.integer, "row": JSONSchema.ref("TodoRow")]),
                JSONSchema.object(["op": ["const": "remove"], "index": JSONSchema.integer]),
                JSONSchema.object(["op": ["const": "update"], "index": JSONSchema.integer, "row": JSONSchema.ref("TodoRow")]),
                JSONSchema.object([
                    "op": ["const": "move"], "from": JSONSchema.integer, "index": JSONSchema.integer, "row": JSONSchema.ref("TodoRow"),
                ]),
                JSONSchema.object(["op": ["const": "reset"], "rows": JSONSchema.array(JSONSchema.ref("TodoRow"))]),
            ]
        ],
        "Cause": JSONSchema.object(
            [
                "connection": JSONSchema.integer, "request": JSONSchema.nullable(JSONSchema.ref("RequestID")), "instance": JSONSchema.string,
                "origin": JSONSchema.enumeration([ApplySync.origin]),
            ],
            optional: ["instance", "origin"]),
        "ChangeBody": JSONSchema.object(changeBody, description: "One transaction's effect on one view, as a subscriber sees it."),
        "ResumePoint": ResumePoint.objectSchema,
        "ViewSelection": ViewSelection.objectSchema,
        "AddPrompt": JSONSchema.object([
            "title": JSONSchema.string, "message": JSONSchema.string, "action": JSONSchema.string, "blankTitleMessage": JSONSchema.string,
        ]),
        "Empty": JSONSchema.object([:]),
        "ItemResult": JSONSchema.open(ItemResult.objectSchema),
        "CommandResult": CommandResult.objectSchema,
        "DueDate": [
            "type": "string",
            "description":
                "A date as people type it: today, tomorrow, fri, next week, eom, in 3 days, 3d, 24 dec, 2026-12-24, optionally followed by a time (18:00, 9am); or an ISO 8601 date-time YYYY-MM-DDTHH:MM[:SS] with optional Z or ±hh:mm. See PROTOCOL.md, Dates.",
        ],
    ]

    static let changeBody: [String: JSONValue] = [
        "revision": JSONSchema.integer,
        "properties": ["type": "object", "properties": .object(propertySchemas), "additionalProperties": true],
        "rows": JSONSchema.array(JSONSchema.ref("RowEdit")), "cause": JSONSchema.nullable(JSONSchema.ref("Cause")), "reset": JSONSchema.boolean,
    ]

    static let viewModels: JSONValue = [
        "TodoList": [
            "description": "A list view: shared by name (main by default) or a connection's own, with its filter and sort.",
            "properties": .object(propertySchemas.merging(["rows": JSONSchema.array(JSONSchema.ref("TodoRow"))]) { $1 }),
            "subscribe": "view.subscribe",
        ],
        "AddPrompt": [
            "description": "The texts of the prompt for a new item.",
            "properties": [
                "title": JSONSchema.string, "message": JSONSchema.string, "action": JSONSchema.string, "blankTitleMessage": JSONSchema.string,
            ],
            "get": "prompt.add",
        ],
    ]

    // MARK: Notifications

    struct Notification {
        var name: String
        var summary: String
        var params: JSONValue
    }

    static let notifications: [Notification] = [
        Notification(
            name: ServerHello.name, summary: "The first line on every connection.",
            params: JSONSchema.object([
                "protocol": JSONSchema.string, "server": JSONSchema.string, "epoch": JSONSchema.string, "revision": JSONSchema.integer,
                "connection": JSONSchema.integer,
                "capabilities": JSONSchema.array(JSONSchema.string),
                "limits": JSONSchema.object([
                    "maxLineBytes": JSONSchema.integer, "lineTimeoutSeconds": ["type": "number"], "outboxSoftLimitBytes": JSONSchema.integer,
                    "outboxHardLimitBytes": JSONSchema.integer, "stallTimeoutSeconds": ["type": "number"], "maxConnections": JSONSchema.integer,
                    "historyRevisions": JSONSchema.integer,
                ]),
            ])),
        Notification(
            name: ListViewChanged.name, summary: "One transaction's effect on one subscription.",
            params: JSONSchema.object(changeBody.merging(["subscription": JSONSchema.integer]) { $1 })),
        Notification(
            name: ConnectionLagging.name, summary: "The client reads too slowly: pending events were dropped; resets follow.",
            params: JSONSchema.object(["pendingBytes": JSONSchema.integer, "softLimitBytes": JSONSchema.integer, "message": JSONSchema.string])),
        Notification(
            name: ConnectionGoodbye.name, summary: "The daemon closes this connection; the last line.",
            params: JSONSchema.object(["reason": JSONSchema.enumeration(["outboxFull", "stalled"]), "message": JSONSchema.string])),
        Notification(
            name: ViewRemoved.name, summary: "The named view a subscription watched was removed; the subscription has ended.",
            params: JSONSchema.object(["subscription": JSONSchema.integer, "view": JSONSchema.string, "message": JSONSchema.string])),
        Notification(
            name: ServerShutdown.name, summary: "The daemon is stopping; the connection closes after this line.",
            params: JSONSchema.object(["reason": JSONSchema.string])),
    ]

    // MARK: Errors

    struct ErrorName {
        var name: String
        var code: Int
        var when: String
    }

    static let errors: [ErrorName] = [
        ErrorName(name: "protocol.parseError", code: -32700, when: "the line is not JSON (or not UTF-8); the connection stays open"),
        ErrorName(name: "protocol.invalidRequest", code: -32600, when: "JSON, but not a JSON-RPC 2.0 request object"),
        ErrorName(name: "protocol.lineTooLong", code: -32600, when: "the line exceeds maxLineBytes; the connection is closed"),
        ErrorName(name: "protocol.lineTimeout", code: -32600, when: "a line was not finished within lineTimeoutSeconds; the connection is closed"),
        ErrorName(name: "protocol.methodNotFound", code: -32601, when: "no method of that name"),
        ErrorName(name: "protocol.invalidParams", code: -32602, when: "a parameter is missing or has the wrong type"),
        ErrorName(name: "todo.invalidTitle", code: -32602, when: "a title is blank, too long, or not one line"),
        ErrorName(name: "todo.invalidDueDate", code: -32602, when: "a due or wait date is not one of the forms todod reads (PROTOCOL.md, Dates)"),
        ErrorName(name: "todo.invalidRecurrence", code: -32602, when: "a repetition is not one of the forms todod reads"),
        ErrorName(name: "todo.invalidShorthand", code: -32602, when: "add or modify text cannot be read (data.position says where)"),
        ErrorName(name: "todo.invalidNote", code: -32602, when: "a note is blank, too long, or not one line"),
        ErrorName(name: "todo.invalidQuery", code: -32602, when: "a query cannot be read (data.position says where) or used"),
        ErrorName(name: "todo.invalidSort", code: -32602, when: "sort text names an unknown key or one twice"),
        ErrorName(name: "view.invalidName", code: -32602, when: "a view name is empty, too long, or has other than letters, digits, - _ ."),
        ErrorName(name: "view.mainIsPermanent", code: -32602, when: "view.remove of the default view main"),
        ErrorName(name: "todo.tooMany", code: -32602, when: "an item would have more than 50 tags or 100 notes"),
        ErrorName(name: "view.tooMany", code: -32602, when: "view.save of a new view when there are 100 named views"),
        ErrorName(name: "todo.invalidImport", code: -32602, when: "an import cannot be read or kept whole; the message names the line or item and nothing is imported"),
        ErrorName(name: "todo.importOutdated", code: -32602, when: "an import was planned on a list that changed before it was applied"),
        ErrorName(name: "todo.importTooLarge", code: -32602, when: "staged import text would pass 64 MiB on one connection or 128 MiB on all; what was staged is dropped"),
        ErrorName(name: "view.unknownProperty", code: -32602, when: "view.subscribe names a property the view model lacks"),
        ErrorName(name: "view.unknownSubscription", code: -32602, when: "this connection has no such subscription"),
        ErrorName(name: "transaction.undoNotAllowed", code: -32602, when: "a transaction holds todo.undo or todo.redo"),
        ErrorName(name: "todo.notFound", code: -32001, when: "no item has that id"),
        ErrorName(name: "todo.noteNotFound", code: -32001, when: "the item has no note of that number"),
        ErrorName(name: "view.notFound", code: -32001, when: "no named view has that name"),
        ErrorName(name: "store.writeFailed", code: -32002, when: "the change could not be stored and was not made"),
        ErrorName(name: "store.unavailable", code: -32006, when: "the shared store (PostgreSQL) cannot be reached; the change was not made, reads go on from memory"),
        ErrorName(name: "todo.nothingToUndo", code: -32003, when: "todo.undo with nothing to undo"),
        ErrorName(name: "todo.nothingToRedo", code: -32003, when: "todo.redo with nothing to redo"),
        ErrorName(name: "todo.unreadableStep", code: -32003, when: "the step to undo or redo cannot be read back from the database"),
        ErrorName(name: "server.tooManyConnections", code: -32004, when: "the daemon serves maxConnections already; the connection is closed"),
        ErrorName(name: "server.badConfiguration", code: -32007, when: "todod cannot start (a todod.conf line it cannot use, a store that refuses it) and says why instead of the greeting; the connection is closed"),
        ErrorName(name: "server.accessDenied", code: -32005, when: "the connecting user is not the daemon's; the connection is closed"),
        ErrorName(name: "server.internalError", code: -32603, when: "a bug in todod"),
    ]
}
