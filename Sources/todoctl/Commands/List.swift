import ArgumentParser
import TodoProtocol

struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the to-do items and how many are left."
    )

    @ParentCommand var todoctl: Todoctl
    var connection: ConnectionOptions { todoctl.connection }

    @Flag(help: "Print the list view model as JSON (the protocol's shape).")
    var json = false

    func run() async throws {
        let state = try await withDaemon(connection) { daemon in
            try await daemon.call(GetListView.self, NoParams())
        }
        if json {
            print(ListRendering.json(state))
        } else {
            ListRendering.lines(state).forEach { print($0) }
        }
    }
}
