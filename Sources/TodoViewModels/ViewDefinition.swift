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

    /// The definition a stored view's settings describe, its query read with
    /// the list's declared `fields`; a stored query that no longer parses (a
    /// field it names is no longer declared) shows everything rather than nothing.
    init(_ settings: ViewSettings, fields: FieldCatalog) {
        self.init(
            filter: settings.filter, query: (try? Query.parse(settings.query, fields: fields)) ?? .all,
            sort: settings.sort, grouping: settings.grouping)
    }

    var settings: ViewSettings {
        ViewSettings(filter: filter, sort: sort, query: query.description, grouping: grouping)
    }
}
