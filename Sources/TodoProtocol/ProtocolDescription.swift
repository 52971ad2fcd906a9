import TodoViewModels

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
public enum ProtocolDescription {
    public static let document: JSONValue = {
        var defs = types
        var methodIndex: [String: JSONValue] = [:]
        for method in methods {
            defs["\(method.name).params"] = method.params
            defs["\(method.name).result"] = method.result
            defs["request.\(method.name)"] = request(method.name, paramsRequired: method.paramsRequired)
            defs["response.\(method.name)"] = response(method.name)
            methodIndex[method.name] = [
                "summary": .string(method.summary),
                "params": ref("\(method.name).params"),
                "result": ref("\(method.name).result"),
                "errors": .array(method.errors.map(JSONValue.string)),
            ]
        }
        var notificationIndex: [String: JSONValue] = [:]
        for notification in notifications {
            defs["\(notification.name).params"] = notification.params
            defs["notification.\(notification.name)"] = object(
                ["jsonrpc": ["const": "2.0"], "method": ["const": .string(notification.name)], "params": ref("\(notification.name).params")])
            notificationIndex[notification.name] = ["summary": .string(notification.summary), "params": ref("\(notification.name).params")]
        }
        defs["ErrorResponse"] = object(["jsonrpc": ["const": "2.0"], "id": nullable(ref("RequestID")), "error": ref("Error")])
        defs["ClientMessage"] = ["oneOf": .array(methods.map { ref("request.\($0.name)") })]
        let anyResponse = object(["jsonrpc": ["const": "2.0"], "id": ref("RequestID"), "result": [:]])
        defs["ServerMessage"] = [
            "description": "Any line todod sends: a response (its result is checked against response.METHOD by whoever knows the method), an error, a notification, or the replies to a batch.",
            "oneOf": .array(
                [anyResponse, ref("ErrorResponse")]
                    + notifications.map { ref("notification.\($0.name)") }
                    + [["type": "array", "minItems": 1, "items": ["oneOf": [anyResponse, ref("ErrorResponse")]]]]),
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

    // MARK: Building blocks

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

    static func request(_ method: String, paramsRequired: Bool) -> JSONValue {
        object(
            ["jsonrpc": ["const": "2.0"], "id": ref("RequestID"), "method": ["const": .string(method)], "params": ref("\(method).params")],
            optional: paramsRequired ? ["id"] : ["id", "params"])
    }

    static func response(_ method: String) -> JSONValue {
        object(["jsonrpc": ["const": "2.0"], "id": ref("RequestID"), "result": ref("\(method).result")])
    }

    // MARK: Types

    /// The list view model's properties, from their declarations.
    static let propertySchemas = TodoListProperties.propertySchemas

    static let types: [String: JSONValue] = [
        "RequestID": ["type": ["string", "number", "null"]],
        "Error": object(
            [
                "code": integer, "message": string,
                "data": object(["name": string, "index": integer], optional: ["index"]),
            ], description: "data.name is stable; message is for people. data.index names the refused command of a transaction."),
        "TodoRow": object(
            [
                "id": integer, "title": string, "done": boolean, "createdText": string, "dueText": nullable(string),
                "overdue": boolean,
            ], description: "One row of a list view, worded for display."),
        "ReminderAlert": object(["id": integer, "condition": enumeration(["waiting", "overdue"]), "message": string]),
        "TodoListProperties": object(propertySchemas, description: "A list view's values besides its rows."),
        "TodoListState": object(["properties": ref("TodoListProperties"), "rows": array(ref("TodoRow"))]),
        "WatchedState": object(
            [
                "properties": ["type": "object", "properties": .object(propertySchemas), "additionalProperties": false],
                "rows": nullable(array(ref("TodoRow"))),
            ], description: "A subscription's state: its watched properties, and its rows (null unless rows are watched)."),
        "RowEdit": [
            "oneOf": [
                object(["op": ["const": "insert"], "index": integer, "row": ref("TodoRow")]),
                object(["op": ["const": "remove"], "index": integer]),
                object(["op": ["const": "update"], "index": integer, "row": ref("TodoRow")]),
                object(["op": ["const": "move"], "from": integer, "index": integer, "row": ref("TodoRow")]),
                object(["op": ["const": "reset"], "rows": array(ref("TodoRow"))]),
            ]
        ],
        "Cause": object(["connection": integer, "request": nullable(ref("RequestID"))]),
        "ChangeBody": object(changeBody, description: "One transaction's effect on one view, as a subscriber sees it."),
        "ResumePoint": object(["epoch": string, "revision": integer]),
        "ViewSelection": object(
            ["view": viewName, "own": boolean, "filter": propertySchemas["filter"]!, "sort": propertySchemas["sort"]!],
            optional: ["view", "own", "filter", "sort"]),
        "AddPrompt": object(["title": string, "message": string, "action": string, "blankTitleMessage": string]),
        "Empty": object([:]),
        "ItemResult": object(["item": ref("TodoRow")]),
        "CommandResult": object(["done": nullable(string)]),
        "DueDate": [
            "type": "string",
            "description": "YYYY-MM-DD (due that day) or an ISO 8601 date-time YYYY-MM-DDTHH:MM[:SS] with optional Z or ±hh:mm.",
        ],
    ]

    static let changeBody: [String: JSONValue] = [
        "revision": integer,
        "properties": ["type": "object", "properties": .object(propertySchemas), "additionalProperties": false],
        "rows": array(ref("RowEdit")), "cause": nullable(ref("Cause")), "reset": boolean,
    ]

    static let viewName: JSONValue = ["type": "string", "minLength": 1, "maxLength": 64]
    static let itemID: JSONValue = ["type": "integer", "minimum": 1]

    static let viewModels: JSONValue = [
        "TodoList": [
            "description": "A list view: shared by name (main by default) or a connection's own, with its filter and sort.",
            "properties": .object(propertySchemas.merging(["rows": array(ref("TodoRow"))]) { $1 }),
            "subscribe": "view.subscribe",
        ],
        "AddPrompt": [
            "description": "The texts of the prompt for a new item.",
            "properties": ["title": string, "message": string, "action": string, "blankTitleMessage": string],
            "get": "prompt.add",
        ],
    ]

    // MARK: Methods

    struct Method {
        var name: String
        var summary: String
        var params: JSONValue
        var result: JSONValue
        var errors: [String] = []
        var paramsRequired = true
    }

    static let commandErrors = ["protocol.invalidParams", "store.writeFailed"]

    static let methods: [Method] = [
        Method(
            name: AddTodo.name, summary: "Adds an item; the title is trimmed and must not be blank.",
            params: object(["title": string, "due": ref("DueDate")], optional: ["due"]), result: ref("ItemResult"),
            errors: ["todo.invalidTitle", "todo.invalidDueDate"] + commandErrors),
        Method(
            name: EditTodo.name, summary: "Retitles an item; the same title changes nothing.",
            params: object(["id": itemID, "title": string]), result: ref("ItemResult"),
            errors: ["todo.notFound", "todo.invalidTitle"] + commandErrors),
        Method(
            name: SetTodoDone.name, summary: "Marks an item done or active.",
            params: object(["id": itemID, "done": boolean]), result: ref("ItemResult"), errors: ["todo.notFound"] + commandErrors),
        Method(
            name: SetTodoDue.name, summary: "Sets or (with null) clears an item's due date.",
            params: object(["id": itemID, "due": nullable(ref("DueDate"))]), result: ref("ItemResult"),
            errors: ["todo.notFound", "todo.invalidDueDate"] + commandErrors),
        Method(
            name: RemoveTodo.name, summary: "Deletes an item.", params: object(["id": itemID]),
            result: object(["id": integer]), errors: ["todo.notFound"] + commandErrors),
        Method(
            name: ToggleAll.name, summary: "If any item is active all become done, otherwise all become active.",
            params: ref("Empty"), result: ref("CommandResult"), errors: commandErrors, paramsRequired: false),
        Method(
            name: ClearCompleted.name, summary: "Deletes every done item.", params: ref("Empty"), result: ref("CommandResult"),
            errors: commandErrors, paramsRequired: false),
        Method(
            name: Undo.name, summary: "Undoes the newest command not yet undone.", params: ref("Empty"),
            result: ref("CommandResult"), errors: ["todo.nothingToUndo"] + commandErrors, paramsRequired: false),
        Method(
            name: Redo.name, summary: "Redoes the newest undone command.", params: ref("Empty"), result: ref("CommandResult"),
            errors: ["todo.nothingToRedo"] + commandErrors, paramsRequired: false),
        Method(
            name: Transaction.name,
            summary: "Applies commands in order, all or nothing, as one undo step and one event per subscription.",
            params: object([
                "commands": [
                    "type": "array", "minItems": 1, "maxItems": .integer(Int64(Transaction.maximumCommands)),
                    "items": object(
                        [
                            "method": enumeration([
                                AddTodo.name, EditTodo.name, SetTodoDone.name, SetTodoDue.name, RemoveTodo.name, ToggleAll.name,
                                ClearCompleted.name,
                            ]),
                            "params": ["type": "object"],
                        ], optional: ["params"]),
                ]
            ]),
            result: object([
                "results": array(object(["id": nullable(integer), "item": nullable(ref("TodoRow")), "done": nullable(string)])),
                "done": nullable(string),
            ]),
            errors: ["transaction.undoNotAllowed", "todo.notFound", "todo.invalidTitle", "todo.invalidDueDate"] + commandErrors),
        Method(
            name: GetListView.name, summary: "A view's state, once.", params: ref("ViewSelection"), result: ref("TodoListState"),
            errors: ["protocol.invalidParams"], paramsRequired: false),
        Method(
            name: SubscribeListView.name,
            summary: "A view's state and, from then on, one view.changed per transaction; with since, the missed events instead.",
            params: object(
                [
                    "view": viewName, "own": boolean, "filter": propertySchemas["filter"]!, "sort": propertySchemas["sort"]!,
                    "properties": array(enumeration(PropertySelection.known)), "since": ref("ResumePoint"),
                ], optional: ["view", "own", "filter", "sort", "properties", "since"]),
            result: object([
                "subscription": integer, "epoch": string, "revision": integer,
                "mode": enumeration(["snapshot", "replay", "reset"]), "state": nullable(ref("WatchedState")),
                "replay": array(ref("ChangeBody")),
                "reason": nullable(enumeration(["epochChanged", "historyTrimmed", "ownView", "futureRevision"])),
            ]),
            errors: ["protocol.invalidParams", "view.unknownProperty"], paramsRequired: false),
        Method(
            name: UnsubscribeListView.name, summary: "Ends one of this connection's subscriptions.",
            params: object(["subscription": integer]), result: ref("Empty"), errors: ["view.unknownSubscription"]),
        Method(
            name: SetViewOptions.name,
            summary: "Changes the filter and sort of a shared view (saved, seen by all) or of a subscription's own view.",
            params: object(
                [
                    "view": viewName, "subscription": integer, "filter": propertySchemas["filter"]!,
                    "sort": propertySchemas["sort"]!,
                ], optional: ["view", "subscription", "filter", "sort"]),
            result: ref("Empty"), errors: ["view.unknownSubscription", "store.writeFailed"], paramsRequired: false),
        Method(
            name: GetAddPrompt.name, summary: "The texts of the new-item prompt.", params: ref("Empty"), result: ref("AddPrompt"),
            paramsRequired: false),
        Method(
            name: DescribeProtocol.name, summary: "This document.", params: ref("Empty"), result: ["type": "object"],
            paramsRequired: false),
        Method(
            name: ServerStatus.name, summary: "What the daemon is doing.", params: ref("Empty"),
            result: object([
                "server": string, "protocol": string, "epoch": string, "revision": integer, "items": integer,
                "connections": integer, "subscriptions": integer, "uptimeSeconds": integer, "dataFile": string,
            ]),
            paramsRequired: false),
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
            params: object([
                "protocol": string, "server": string, "epoch": string, "revision": integer, "connection": integer,
                "capabilities": array(string),
                "limits": object([
                    "maxLineBytes": integer, "lineTimeoutSeconds": ["type": "number"], "outboxSoftLimitBytes": integer,
                    "outboxHardLimitBytes": integer, "stallTimeoutSeconds": ["type": "number"], "maxConnections": integer,
                    "historyRevisions": integer,
                ]),
            ])),
        Notification(
            name: ListViewChanged.name, summary: "One transaction's effect on one subscription.",
            params: object(changeBody.merging(["subscription": integer]) { $1 })),
        Notification(
            name: ConnectionLagging.name, summary: "The client reads too slowly: pending events were dropped; resets follow.",
            params: object(["pendingBytes": integer, "softLimitBytes": integer, "message": string])),
        Notification(
            name: ConnectionGoodbye.name, summary: "The daemon closes this connection; the last line.",
            params: object(["reason": enumeration(["outboxFull", "stalled"]), "message": string])),
        Notification(
            name: ServerShutdown.name, summary: "The daemon is stopping; the connection closes after this line.",
            params: object(["reason": string])),
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
        ErrorName(name: "todo.invalidDueDate", code: -32602, when: "a due date is neither YYYY-MM-DD nor an ISO 8601 date-time"),
        ErrorName(name: "view.unknownProperty", code: -32602, when: "view.subscribe names a property the view model lacks"),
        ErrorName(name: "view.unknownSubscription", code: -32602, when: "this connection has no such subscription"),
        ErrorName(name: "transaction.undoNotAllowed", code: -32602, when: "a transaction holds todo.undo or todo.redo"),
        ErrorName(name: "todo.notFound", code: -32001, when: "no item has that id"),
        ErrorName(name: "store.writeFailed", code: -32002, when: "the change could not be stored and was not made"),
        ErrorName(name: "todo.nothingToUndo", code: -32003, when: "todo.undo with nothing to undo"),
        ErrorName(name: "todo.nothingToRedo", code: -32003, when: "todo.redo with nothing to redo"),
        ErrorName(name: "server.tooManyConnections", code: -32004, when: "the daemon serves maxConnections already; the connection is closed"),
        ErrorName(name: "server.accessDenied", code: -32005, when: "the connecting user is not the daemon's; the connection is closed"),
        ErrorName(name: "server.internalError", code: -32603, when: "a bug in todod"),
    ]
}

extension ProtocolDescription {
    /// The names of a method's parameters, from its schema (for the error
    /// that answers positional parameters), in alphabetical order.
    public static func parameterNames(of method: String) -> [String] {
        guard var schema = methods.first(where: { $0.name == method })?.params else { return [] }
        if case .object(let object) = schema, case .string(let reference)? = object["$ref"],
            let name = reference.split(separator: "/").last, let referenced = types[String(name)]
        {
            schema = referenced
        }
        guard case .object(let object) = schema, case .object(let properties)? = object["properties"] else { return [] }
        return properties.keys.sorted()
    }
}
