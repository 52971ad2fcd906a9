import TodoViewModels

// Reading views and changing their options (subscriptions: SubscriptionMethods).

/// Which list view a request is about: a shared named view (default `main`),
/// or, with `own`, a view of this request's own with its own filter and sort.
public struct ViewSelection: Codable, Hashable, Sendable {
    public var view: String?
    public var own: Bool?
    public var filter: ListFilter?
    public var sort: ListSort?

    public init(view: String? = nil, own: Bool? = nil, filter: ListFilter? = nil, sort: ListSort? = nil) {
        self.view = view
        self.own = own
        self.filter = filter
        self.sort = sort
    }
}

/// `view.get`: one view's state, once.
public enum GetListView: RPCMethod {
    public static let name = "view.get"
    public static let summary = "A view's state, once."
    public typealias Params = ViewSelection
    public typealias Result = TodoListState
    public static var paramsSchema: JSONValue { JSONSchema.ref("ViewSelection") }
    public static var resultSchema: JSONValue { JSONSchema.ref("TodoListState") }
    public static let errors = ["protocol.invalidParams"]
}

/// `view.setOptions`: changes the filter and/or sort of a shared view (every
/// client on it sees the change; it is saved) or of a subscription's own view.
public enum SetViewOptions: RPCMethod {
    public static let name = "view.setOptions"
    public static let summary =
        "Changes the filter and sort of a shared view (saved, seen by all) or of a subscription's own view."

    public struct Params: Codable, Hashable, Sendable {
        /// A shared view's name (default `main`).
        public var view: String?
        /// Instead of `view`: the own view of this connection's subscription.
        public var subscription: Int?
        public var filter: ListFilter?
        public var sort: ListSort?
        public init(view: String? = nil, subscription: Int? = nil, filter: ListFilter? = nil, sort: ListSort? = nil) {
            self.view = view
            self.subscription = subscription
            self.filter = filter
            self.sort = sort
        }
    }

    public typealias Result = NoParams

    public static var paramsSchema: JSONValue {
        let properties = ProtocolDescription.propertySchemas
        return JSONSchema.object(
            [
                "view": JSONSchema.viewName, "subscription": JSONSchema.integer, "filter": properties["filter"]!,
                "sort": properties["sort"]!,
            ],
            optional: ["view", "subscription", "filter", "sort"])
    }
    public static let errors = ["view.unknownSubscription", "store.writeFailed"]
}

/// `prompt.add`: the texts of the "new item" prompt.
public enum GetAddPrompt: RPCMethod {
    public static let name = "prompt.add"
    public static let summary = "The texts of the new-item prompt."
    public typealias Params = NoParams
    public typealias Result = AddPromptViewModel
    public static var resultSchema: JSONValue { JSONSchema.ref("AddPrompt") }
    public static let errors: [String] = []
}
