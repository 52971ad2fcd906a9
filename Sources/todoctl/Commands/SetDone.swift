import ArgumentParser
import TodoProtocol

struct Done: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "done", abstract: "Mark items done.")

    @ParentCommand var todoctl: Todoctl
    @OptionGroup var items: ItemIDs

    func run() async throws {
        try await items.forEach(on: todoctl.connection) { daemon, id in
            ListRendering.row(try await daemon.call(SetTodoDone.self, .init(id: id, done: true)).item)
        }
    }
}

struct Undone: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "undone", abstract: "Mark items not done (active) again.")

    @ParentCommand var todoctl: Todoctl
    @OptionGroup var items: ItemIDs

    func run() async throws {
        try await items.forEach(on: todoctl.connection) { daemon, id in
            ListRendering.row(try await daemon.call(SetTodoDone.self, .init(id: id, done: false)).item)
        }
    }
}
