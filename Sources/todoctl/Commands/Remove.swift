import ArgumentParser
import TodoProtocol

struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete items: by id, or every item a query matches (one undo step brings them back).")

    @ParentCommand var todoctl: Todoctl
    @OptionGroup var items: ItemTargets

    func run() async throws {
        try await items.run(
            on: todoctl.connection, verb: "delete", filter: .all,
            command: { try ItemTargets.command(RemoveTodo.self, .init(id: $0)) },
            describe: { entry, id in entry.done == nil ? "removed \(id) (already, above)" : "removed \(id)" + Done.carried(entry.done) })
    }
}
