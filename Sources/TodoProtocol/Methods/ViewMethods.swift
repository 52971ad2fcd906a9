import CanonicalJSON
import TodoViewState

// Reading views and changing their options (subscriptions: SubscriptionMethods).

/// Which list view a request is about: a named view (default `main`), or,
/// with `own`, a view of this request's own with its own filter, query,
/// sort and grouping.
public struct ViewSelection: Codable, Hashable, Sendable, KeyedSchema {
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

    enum CodingKeys: String, CodingKey, CaseIterable {
        case view, own, filter, sort, query, grouping, flat
    }

    /// The other requests that choose what a view shows take their options'
    /// schemas from here.
    static func schema(of key: CodingKeys) -> KeySchema {
        switch key {
        case .view: .optional(JSONSchema.viewName)
        case .own: .optional(Bool.wireType.schema)
        // As the list view model's `filter` property: with its meaning.
        case .filter: .optional(ProtocolDescription.propertySchemas["filter"]!)
        case .sort: .optional(ListSort.wireType.schema)
        case .query: .optional(String.wireType.schema)
        case .grouping: .optional(GroupingOption.wireType.schema)
        case .flat:
            .optional([
                "type": "boolean",
                "description": "With own: true, rows in sort order alone, without subtasks under their parents or path rows.",
            ])
        }
    }
}

/// A grouping as requests give it: `project`, or `none` to stop grouping.
public enum GroupingOption: String, Codable, Hashable, Sendable, CaseIterable, WireTyped {
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

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
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

        enum CodingKeys: String, CodingKey, CaseIterable {
            case view, subscription, filter, sort, query, grouping
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .view: ViewSelection.schema(of: .view)
            case .subscription: .optional(Int.wireType.schema)
            case .filter: ViewSelection.schema(of: .filter)
            case .sort: ViewSelection.schema(of: .sort)
            case .query: ViewSelection.schema(of: .query)
            case .grouping: ViewSelection.schema(of: .grouping)
            }
        }
    }

    public typealias Result = NoParams

    public static var paramsSchema: JSONValue { Params.objectSchema }
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

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
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

        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, query, filter, sort, grouping
        }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .name: .required(JSONSchema.viewName)
            case .query: ViewSelection.schema(of: .query)
            case .filter: ViewSelection.schema(of: .filter)
            case .sort: ViewSelection.schema(of: .sort)
            case .grouping: ViewSelection.schema(of: .grouping)
            }
        }
    }

    public typealias Result = NamedViewSummary

    public static var paramsSchema: JSONValue { Params.objectSchema }
    public static var resultSchema: JSONValue { NamedViewSummary.reference }
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

    public struct Result: Codable, Hashable, Sendable, KeyedSchema {
        public var views: [NamedViewSummary]
        public init(views: [NamedViewSummary]) { self.views = views }

        enum CodingKeys: String, CodingKey, CaseIterable { case views }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .views: .required(JSONSchema.array(NamedViewSummary.reference))
            }
        }
    }

    public static var resultSchema: JSONValue { Result.objectSchema }
    public static let errors: [String] = []
}

/// `view.remove`: deletes a named view; its subscriptions end.
public enum RemoveView: RPCMethod {
    public static let name = "view.remove"
    public static let summary = "Deletes a named view (not main); subscriptions to it end with view.removed."

    public struct Params: Codable, Hashable, Sendable, KeyedSchema {
        public var name: String
        public init(name: String) { self.name = name }

        enum CodingKeys: String, CodingKey, CaseIterable { case name }

        static func schema(of key: CodingKeys) -> KeySchema {
            switch key {
            case .name: .required(JSONSchema.viewName)
            }
        }
    }

    public typealias Result = NoParams

    public static var paramsSchema: JSONValue { Params.objectSchema }
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

    /// Its schema is one of the shared types, `NamedView`, as `view.list` and `view.save` both give it.
    static let reference = JSONSchema.ref("NamedView")

    static func schema(of key: CodingKeys) -> KeySchema {
        switch key {
        case .name, .query, .itemsLeft: .required(String.wireType.schema)
        // As the list view model's `filter` property: with its meaning.
        case .filter: .required(ProtocolDescription.propertySchemas["filter"]!)
        case .sort: .required(ListSort.wireType.schema)
        case .grouping: .required(Optional<ListGrouping>.wireType.schema)
        case .activeCount, .overdueCount, .dueTodayCount: .required(Int.wireType.schema)
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
