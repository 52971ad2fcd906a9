import ArgumentParser
import TodoProtocol
import TodoViewState

extension ListFilter: ExpressibleByArgument {}
extension ListSort: ExpressibleByArgument {
    /// Sort text as typed: a key may also be reversed with a leading `-`
    /// (`-urgency`, `priority,-due`), as other tools write it; todod's
    /// form (`urgency-`) is what is sent.
    public init?(argument: String) {
        guard let sort = try? ListSort(parsing: Self.suffixed(argument)) else { return nil }
        self = sort
    }

    /// `-key` and `+key` written as todod writes them, `key-` and `key+`.
    static func suffixed(_ text: String) -> String {
        text.split(separator: ",", omittingEmptySubsequences: false).map { part in
            let word = part.trimmingWhitespace()
            guard let sign = word.first, sign == "-" || sign == "+" else { return word }
            return word.dropFirst().trimmingWhitespace() + String(sign)
        }.joined(separator: ",")
    }
}

struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List to-do items: the shared view, a named view (@NAME), or the items a query matches.",
        discussion: """
            `todoctl ls` shows the shared view `main`, as every `todoctl watch` sees it. `todoctl ls @work` shows the \
            named view work (see `todoctl view`). `todoctl ls +home due.before:fri` shows the active items a query \
            matches, in a listing of its own. The first line says which view, query and sort are shown.

            Queries: +tag, -tag, project:home (and its sub-projects), priority:H, priority.above:L, due:today, \
            due.before:fri, due.after:2026-12-01, overdue, status:pending|completed|waiting|expired|all, recurring, \
            /regex/, bare words (the title contains them), and, or, not, parentheses. Waiting items are hidden \
            unless the query names a status.

            Sorts: keys separated by commas, each optionally followed by - to reverse it: created, modified, \
            title (natural order), due, priority (highest first), project, urgency (highest first).

            Subtasks (parent:ID) are listed under their parent, indented, sorted within each level; when a query \
            matches a subtask, the path to it is shown too, dimmed and without a box. --flat lists the items alone, \
            in sort order. blocked and blocking find items held up by, or holding up, others (depends:ID).
            """
    )

    @ParentCommand var todoctl: Todoctl

    // `.allUnrecognized`: a query word like `-work` is not an option.
    @Argument(parsing: .allUnrecognized, help: "@NAME, or a query.")
    var query: [String] = []

    @Option(help: "Which items: all, active or completed (this listing only).")
    var filter: ListFilter?

    // `.unconditional`: `--sort -urgency` is a value, not an option.
    @Option(parsing: .unconditional, help: "Order, e.g. created, title, due, priority,due- or -urgency (this listing only).")
    var sort: ListSort?

    @Option(help: "Group rows: project (this listing only).")
    var group: ListGrouping?

    @Flag(help: "List without the tree: subtasks in sort order among the rest, no path rows (this listing only).")
    var flat = false

    @Flag(help: "Print the list view model as JSON (the protocol's shape).")
    var json = false

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let (selection, name) = try ViewChoice.selection(
            words: query, filter: filter, sort: sort, grouping: group, flat: flat)
        let state = try await withDaemon(todoctl.connection) { daemon in
            try await daemon.call(GetListView.self, selection)
        }
        if json {
            print(ListRendering.json(state))
        } else {
            ListRendering.printListing(state, header: ListRendering.header(state, view: name), style: output.style)
        }
    }
}

/// Which view a listing or a watch shows, from its words: none (the shared
/// view main), `@NAME` (a named view), or a query (a view of its own).
enum ViewChoice {
    /// The selection to send and the view's name (nil for a view of its own).
    static func selection(words: [String], filter: ListFilter?, sort: ListSort?, grouping: ListGrouping?, flat: Bool = false) throws
        -> (ViewSelection, String?)
    {
        if words.count == 1, words[0].hasPrefix("@"), words[0].count > 1 {
            guard filter == nil, sort == nil, grouping == nil, !flat else {
                throw ValidationError(
                    "A named view has its own filter, sort and grouping, and shows the tree; change them with `todoctl view save`, or list with a query.")
            }
            return (ViewSelection(view: String(words[0].dropFirst())), String(words[0].dropFirst()))
        }
        if words.isEmpty && filter == nil && sort == nil && grouping == nil && !flat { return (ViewSelection(), "main") }
        let query = Shorthand.joined(words)
        let defaultFilter: ListFilter = query.isEmpty || query.lowercased().contains("status:") ? .all : .active
        return (
            ViewSelection(
                own: true, filter: filter ?? defaultFilter, sort: sort, query: query,
                grouping: grouping.map { _ in .project }, flat: flat ? true : nil),
            nil
        )
    }
}
