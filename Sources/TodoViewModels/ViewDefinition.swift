import TodoModel

/// What a list view shows: its filter, query, sort and grouping. A named
/// view stores this (as `ViewSettings`); a client's own view has one too.
public struct ViewDefinition: Hashable, Sendable {
    public var filter: ListFilter
    public var query: Query
    public var sort: ListSort
    public var grouping: ListGrouping?

    public init(filter: ListFilter = .all, query: Query = .all, sort: ListSort = .created, grouping: ListGrouping? = nil) {
        self.filter = filter
        self.query = query
        self.sort = sort
        self.grouping = grouping
    }

    /// The definition a stored view's settings describe; a stored query that
    /// no longer parses (it never should) shows everything rather than nothing.
    init(_ settings: ViewSettings) {
        self.init(
            filter: settings.filter, query: (try? Query.parse(settings.query)) ?? .all, sort: settings.sort,
            grouping: settings.grouping)
    }

    var settings: ViewSettings {
        ViewSettings(filter: filter, sort: sort, query: query.description, grouping: grouping)
    }
}
