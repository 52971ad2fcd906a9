import ArgumentParser
import TodoProtocol
import TodoViewModels

extension ListFilter: ExpressibleByArgument {}
extension ListSort: ExpressibleByArgument {
    public init?(argument: String) {
        guard let sort = try? ListSort(parsing: argument) else { return nil }
        self = sort
    }
}

struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the to-do items and how many are left.",
        discussion: "Without --filter or --sort, shows the shared view as every `todoctl watch` sees it."
    )

    @ParentCommand var todoctl: Todoctl

    @Option(help: "Which items: all, active or completed (this listing only).")
    var filter: ListFilter?

    @Option(help: "Order: created, title or due (this listing only).")
    var sort: ListSort?

    @Flag(help: "Print the list view model as JSON (the protocol's shape).")
    var json = false

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let selection =
            filter == nil && sort == nil ? ViewSelection() : ViewSelection(own: true, filter: filter, sort: sort)
        let state = try await withDaemon(todoctl.connection) { daemon in
            try await daemon.call(GetListView.self, selection)
        }
        if json {
            print(ListRendering.json(state))
        } else {
            ListRendering.lines(state, style: output.style).forEach { print($0) }
        }
    }
}
