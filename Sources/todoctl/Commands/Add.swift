import ArgumentParser
import TodoProtocol

struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add a to-do item.",
        discussion: "The words are joined with spaces: `todoctl add buy milk` adds \"buy milk\"."
    )

    @ParentCommand var todoctl: Todoctl
    var connection: ConnectionOptions { todoctl.connection }

    @Argument(help: "The item's title.")
    var title: [String]

    func validate() throws {
        if title.isEmpty { throw ValidationError("Give the item a title: todoctl add TITLE") }
    }

    func run() async throws {
        let title = title.joined(separator: " ")
        let result = try await withDaemon(connection) { daemon in
            try await daemon.call(AddTodo.self, .init(title: title))
        }
        print(ListRendering.row(result.item))
    }
}
