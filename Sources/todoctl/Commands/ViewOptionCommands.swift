import ArgumentParser
import TodoProtocol
import TodoViewState

/// Sets the shared view's filter or sort (every watcher sees the change, and
/// it is kept across restarts), then prints the view as `ls` does.
private func setSharedView(_ options: SetViewOptions.Params, _ todoctl: Todoctl, style: TerminalStyle) async throws {
    let state = try await withDaemon(todoctl.connection) { daemon in
        _ = try await daemon.call(SetViewOptions.self, options)
        return try await daemon.call(GetListView.self, ViewSelection())
    }
    ListRendering.printListing(state, header: ListRendering.header(state, view: "main"), style: style)
}

struct FilterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Show all, active or completed items in the shared view (every watcher follows).",
        discussion: "For one listing of your own instead, use `todoctl ls --filter`.")

    @ParentCommand var todoctl: Todoctl

    @Argument(help: "all, active or completed")
    var filter: ListFilter

    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await setSharedView(SetViewOptions.Params(filter: filter), todoctl, style: output.style)
    }
}

struct SortCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sort",
        abstract: "Order the shared view: created, title, due, priority, urgency, or keys like priority,due- (every watcher follows).",
        discussion: "For one listing of your own instead, use `todoctl ls --sort`.")

    @ParentCommand var todoctl: Todoctl

    // `.allUnrecognized`: `-urgency` is a sort, not an option.
    @Argument(
        parsing: .allUnrecognized,
        help: "sort keys: created, modified, title, due, priority, project, urgency; comma-separated, - reverses (due- or -due)")
    var sort: [String] = []

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard sort.count == 1 else { throw ValidationError("Give one sort, e.g. priority,due- or -urgency.") }
        do {
            _ = try ListSort(parsing: ListSort.suffixed(sort[0]))
        } catch {
            throw ValidationError(error.message)
        }
    }

    func run() async throws {
        guard let sort = ListSort(argument: sort[0]) else { throw ExitCode.validationFailure }
        try await setSharedView(SetViewOptions.Params(sort: sort), todoctl, style: output.style)
    }
}
