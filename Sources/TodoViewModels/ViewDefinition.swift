import TodoModel
import TodoViewState

/// What a list view shows: its filter, query, sort and grouping. A named
/// view stores this (as `ViewSettings`); a client's own view has one too.
public struct ViewDefinition: Hashable, Sendable {
    public var filter: ListFilter
    /// Setting a query forgets an unread one (`unreadQuery`).
    public var query: Query { didSet { unreadQuery = nil } }
    /// A stored query this list cannot read (it names a field not declared
    /// here, or no longer): the view shows everything meanwhile, and the text
    /// is written back as it was whenever the view's other settings change,
    /// so that a reload, a restart or another instance with the field
    /// declared reads it again.
    public internal(set) var unreadQuery: String?
    public var sort: ListSort
    public var grouping: ListGrouping?
    /// Rows in sort order alone, without the tree: subtasks are not placed
    /// under their parents, and no row is shown only as the path to a
    /// matching subtask. A client's own view may ask for it (`todoctl ls
    /// --flat`); named views show the tree.
    public var flat: Bool

    public init(
        filter: ListFilter = .all, query: Query = .all, sort: ListSort = .created, grouping: ListGrouping? = nil,
        flat: Bool = false
    ) {
        self.filter = filter
        self.query = query
        self.sort = sort
        self.grouping = grouping
        self.flat = flat
    }

    /// The definition a stored view's settings describe, its query read with
    /// the list's declared `fields`; a stored query that no longer parses (a
    /// field it names is no longer declared) shows everything rather than nothing.
    init(_ settings: ViewSettings, fields: FieldCatalog) {
        let query = try? Query.parse(settings.query, fields: fields)
        self.init(filter: settings.filter, query: query ?? .all, sort: settings.sort, grouping: settings.grouping)
        if query == nil { unreadQuery = settings.query }
    }

    var settings: ViewSettings {
        ViewSettings(filter: filter, sort: sort, query: unreadQuery ?? query.description, grouping: grouping)
    }

    /// This definition with its query read again with `fields` (declared
    /// fields changed): from its text, or from the unread text it keeps.
    func rereading(with fields: FieldCatalog) -> ViewDefinition {
        ViewDefinition(settings, fields: fields)
    }
}
