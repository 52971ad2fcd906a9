import ArgumentParser
import TodoProtocol

struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Give an item a new title.")

    @ParentCommand var todoctl: Todoctl

    @Argument(help: "The item's id, as `todoctl ls` shows it.")
    var id: Int64

    @Argument(help: "The new title.")
    var title: [String]

    func run() async throws {
        let (id, title) = (id, title.joined(separator: " "))
        let result = try await withDaemon(todoctl.connection) { daemon in
            try await TitleTooLong.naming(title) {
                try await daemon.call(EditTodo.self, .init(id: id, title: title))
            }
        }
        print(ListRendering.row(result.item))
    }
}
