import ArgumentParser
import TodoProtocol

struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete items.")

    @ParentCommand var todoctl: Todoctl
    @OptionGroup var items: ItemIDs

    func run() async throws {
        try await items.forEach(on: todoctl.connection) { daemon, id in
            "removed \(try await daemon.call(RemoveTodo.self, .init(id: id)).id)"
        }
    }
}
