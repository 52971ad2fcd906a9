import ArgumentParser
import TodoProtocol
import TodoViewState

extension ListGrouping: ExpressibleByArgument {}

/// `todoctl view save|ls|rm`: named views every terminal shares.
struct ViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Named views: a saved query, sort and grouping every terminal can show (`todoctl ls @NAME`, `todoctl watch @NAME`).",
        subcommands: [SaveViewCommand.self, ListViewsCommand.self, RemoveViewCommand.self])
}

struct SaveViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save",
        abstract: "Create a named view, or change what it shows; everyone watching it sees the change.",
        discussion: "`todoctl view save work project:work and not +someday --sort priority,due --group project`")

    @ParentCommand var todoctl: Todoctl

    @Argument(help: "The view's name: letters, digits, - _ .")
    var name: String

    @Argument(parsing: .allUnrecognized, help: "The query (empty: every item).")
    var query: [String] = []

    // `.unconditional`: `--sort -urgency` is a value, not an option.
    @Option(parsing: .unconditional, help: "Sort keys, e.g. due, priority,due-, urgency (see `todoctl help ls`).")
    var sort: ListSort?

    @Option(help: "all, active or completed.")
    var filter: ListFilter?

    @Option(help: "Group rows: project.")
    var group: ListGrouping?

    func run() async throws {
        let params = SaveView.Params(
            name: name, query: Shorthand.joined(query), filter: filter, sort: sort,
            grouping: group.map { _ in GroupingOption.project } ?? GroupingOption.none)
        let saved = try await withDaemon(todoctl.connection) { daemon in try await daemon.call(SaveView.self, params) }
        print(ViewsRendering.line(saved))
    }
}

struct ListViewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the named views and what they show.")

    @ParentCommand var todoctl: Todoctl

    @Flag(help: "Print the views as JSON (the protocol's view.list result).")
    var json = false

    func run() async throws {
        let result = try await withDaemon(todoctl.connection) { daemon in try await daemon.call(ListViews.self, NoParams()) }
        if json {
            print(ListRendering.json(result))
        } else {
            result.views.forEach { print(ViewsRendering.line($0)) }
        }
    }
}

struct RemoveViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Remove a named view (not main); terminals watching it are told.")

    @ParentCommand var todoctl: Todoctl

    @Argument(help: "The view's name.")
    var name: String

    func run() async throws {
        let name = name
        _ = try await withDaemon(todoctl.connection) { daemon in try await daemon.call(RemoveView.self, .init(name: name)) }
        print("removed view \(name)")
    }
}

/// One named view on one line: `@work  project:work  sort priority,due  3 items left`.
enum ViewsRendering {
    static func line(_ view: NamedViewSummary) -> String {
        var parts = ["@" + view.name, view.query.isEmpty ? "(every item)" : view.query]
        if view.filter != .all { parts.append("filter \(view.filter.rawValue)") }
        parts.append("sort \(view.sort.text)")
        if let grouping = view.grouping { parts.append("grouped by \(grouping.rawValue)") }
        parts.append(view.itemsLeft)
        if view.overdueCount > 0 { parts.append("\(view.overdueCount) overdue") }
        return parts.joined(separator: "  ·  ")
    }
}
