import TodoViewState

// Reading views and changing their options (subscriptions: SubscriptionMethods).

/// Which list view a request is about: a named view (default `main`), or,
/// with `own`, a view of this request's own with its own filter, query,
/// sort and grouping.
public struct ViewSelection: Codable, Hashable, Sendable {
    public var view: String?
    public var own: Bool?
    public var filter: ListFilter?
    public var sort: ListSort?
    /// Query text (PROTOCOL.md, Queries).
    public var query: String?
    public var grouping: GroupingOption?
    /// A client's own view without the tree: rows in sort order alone.
    public var flat: Bool?

    public init(
        view: String? = nil, own: Bool? = nil, filter: ListFilter? = nil, sort: ListSort? = nil, query: String? = nil,
        grouping: GroupingOption? = nil, flat: Bool? = nil
    ) {
        self.view = view
        self.own = own
        self.filter = filter
        self.sort = sort
        self.query = query
        self.grouping = grouping
        self.flat = flat
    }
}

/// A grouping as requests give it: `project`, or `none` to stop grouping.
public enum GroupingOption: String, Codable, Hashable, Sendable, CaseIterable {
    case project, none

    public var grouping: ListGrouping? { self == .project ? .project : nil }
}

/// `view.get`: one view's state, once.
public enum GetListView: RPCMethod {
    public static let name = "view.get"
    public static let summary = "A view's state, once."
    public typealias Params = ViewSelection
    public typealias Result = TodoListState
    public static var paramsSchema: JSONValue { JSONSchema.ref("ViewSelection") }
    public static var resultSchema: JSONValue { JSONSchema.ref("TodoListState") }
    public static let errors = [
        "protocol.invalidParams", "todo.invalidQuery", "todo.invalidSort", "view.notFound",
    ]
}

/// `view.setOptions`: changes the filter and/or sort of a shared view (every
/// client on it sees the change; it is saved) or of a subscription's own view.
public enum SetViewOptions: RPCMethod {
    public static let name = "view.setOptions"
    public static let summary =
        "Changes what a named view shows (saved, seen by all) or a subscription's own view: filter, query, sort, grouping."

    public struct Params: Codable, Hashable, Sendable {
        /// A named view (default `main`).
        public var view: String?
        /// Instead of `view`: the own view of this connection's subscription.
        public var subscription: Int?
        public var filter: ListFilter?
        public var sort: ListSort?
        public var query: String?
        public var grouping: GroupingOption?
        public init(
            view: String? = nil, subscription: Int? = nil, filter: ListFilter? = nil, sort: ListSort? = nil,
            query: String? = nil, grouping: GroupingOption? = nil
        ) {
            self.view = view
            self.subscription = subscription
            self.filter = filter
            self.sort = sort
            self.query = query
            self.grouping = grouping
        }
    }

    public typealias Result = NoParams

    public static var paramsSchema: JSONValue {
        let properties = ProtocolDescription.propertySchemas
        return JSONSchema.object(
            [
                "view": JSONSchema.viewName, "subscription": JSONSchema.integer, "filter": properties["filter"]!,
                "sort": JSONSchema.ref("ListSort"), "query": JSONSchema.string,
                "grouping": JSONSchema.enumeration(GroupingOption.allCases.map(\.rawValue)),
            ],
            optional: ["view", "subscription", "filter", "sort", "query", "grouping"])
    }
    public static let errors = [
        "view.unknownSubscription", "view.notFound", "protocol.invalidParams", "todo.invalidQuery", "todo.invalidSort",
        "store.writeFailed", "store.unavailable",
    ]
}

/// `view.save`: creates a named view, or changes what it shows.
public enum SaveView: RPCMethod {
    public static let name = "view.save"
    public static let summary =
        "Creates or replaces a named view (query, filter, sort, grouping); saved, and pushed to everyone watching it."

    public struct Params: Codable, Hashable, Sendable {
        public var name: String
        public var query: String?
        public var filter: ListFilter?
        public var sort: ListSort?
        public var grouping: GroupingOption?
        public init(name: String, query: String? = nil, filter: ListFilter? = nil, sort: ListSort? = nil, grouping: GroupingOption? = nil) {
            self.name = name
            self.query = query
            self.filter = filter
            self.sort = sort
            self.grouping = grouping
        }
    }

    public typealias Result = NamedViewSummary

    public static var paramsSchema: JSONValue {
        JSONSchema.object(
            [
                "name": JSONSchema.viewName, "query": JSONSchema.string, "filter": ProtocolDescription.propertySchemas["filter"]!,
                "sort": JSONSchema.ref("ListSort"), "grouping": JSONSchema.enumeration(GroupingOption.allCases.map(\.rawValue)),
            ], optional: ["query", "filter", "sort", "grouping"])
    }
    public static var resultSchema: JSONValue { JSONSchema.ref("NamedView") }
    public static let errors = [
        "view.invalidName", "view.tooMany", "todo.invalidQuery", "todo.invalidSort", "protocol.invalidParams",
        "store.writeFailed", "store.unavailable",
    ]
}

/// `view.list`: every named view, with what it shows and its counts.
public enum ListViews: RPCMethod {
    public static let name = "view.list"
    public static let summary = "Every named view, by name, with its query, sort and counts."
    public typealias Params = NoParams

    public struct Result: Codable, Hashable, Sendable {
        public var views: [NamedViewSummary]
        public init(views: [NamedViewSummary]) { self.views = views }
    }

    public static var resultSchema: JSONValue { JSONSchema.object(["views": JSONSchema.array(JSONSchema.ref("NamedView"))]) }
    public static let errors: [String] = []
}

/// `view.remove`: deletes a named view; its subscriptions end.
public enum RemoveView: RPCMethod {
    public static let name = "view.remove"
    public static let summary = "Deletes a named view (not main); subscriptions to it end with view.removed."

    public struct Params: Codable, Hashable, Sendable {
        public var name: String
        public init(name: String) { self.name = name }
    }

    public typealias Result = NoParams

    public static var paramsSchema: JSONValue { JSONSchema.object(["name": JSONSchema.viewName]) }
    public static let errors = ["view.notFound", "view.mainIsPermanent", "protocol.invalidParams", "store.writeFailed", "store.unavailable"]
}

/// A named view as `view.list` and `view.save` give it.
public struct NamedViewSummary: Codable, Hashable, Sendable, KeyedSchema {
    public var name: String
    public var query: String
    public var filter: ListFilter
    public var sort: ListSort
    @ExplicitNull public var grouping: ListGrouping?
    public var itemsLeft: String
    public var activeCount: Int
    public var overdueCount: Int
    public var dueTodayCount: Int

    public init(
        name: String, query: String, filter: ListFilter, sort: ListSort, grouping: ListGrouping?, itemsLeft: String,
        activeCount: Int, overdueCount: Int, dueTodayCount: Int
    ) {
        self.name = name
        self.query = query
        self.filter = filter
        self.sort = sort
        self.grouping = grouping
        self.itemsLeft = itemsLeft
        self.activeCount = activeCount
        self.overdueCount = overdueCount
        self.dueTodayCount = dueTodayCount
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, query, filter, sort, grouping, itemsLeft, activeCount, overdueCount, dueTodayCount
    }

    static func schema(of key: CodingKeys) -> JSONValue {
        switch key {
        case .name, .query, .itemsLeft: String.wireType.schema
        // As the list view model's `filter` property: with its meaning.
        case .filter: ProtocolDescription.propertySchemas["filter"]!
        case .sort: ListSort.wireType.schema
        case .grouping: Optional<ListGrouping>.wireType.schema
        case .activeCount, .overdueCount, .dueTodayCount: Int.wireType.schema
        }
    }
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
