import ArgumentParser
import TodoProtocol

struct Done: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done", abstract: "Mark items done: by id, or every active item a query matches (one undo step).",
        discussion: "`todoctl done 3 4`, `todoctl done +errands`. A recurring item comes back, due again.")

    @ParentCommand var todoctl: Todoctl
    @OptionGroup var items: ItemTargets

    func run() async throws {
        try await items.run(
            on: todoctl.connection, verb: "mark done", filter: .active,
            command: { try ItemTargets.command(SetTodoDone.self, .init(id: $0, done: true)) },
            describe: { entry, id in (entry.item.map { ListRendering.row($0) } ?? "\(id)") + Self.carried(entry.done) })
    }

    /// What completing took along, when it took subtasks: "(complete
    /// “house” and 2 open subtasks)" under the row.
    static func carried(_ done: String?) -> String {
        guard let done, done.contains(#/ and \d+ (open )?(subtasks?|parents?)($|[ ,;)])/#) else { return "" }
        return "\n   (" + done + ")"
    }
}

struct Undone: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undone", abstract: "Mark items not done (active) again: by id, or every completed item a query matches.")

    @ParentCommand var todoctl: Todoctl
    @OptionGroup var items: ItemTargets

    func run() async throws {
        try await items.run(
            on: todoctl.connection, verb: "reopen", filter: .completed,
            command: { try ItemTargets.command(SetTodoDone.self, .init(id: $0, done: false)) },
            describe: { entry, id in (entry.item.map { ListRendering.row($0) } ?? "\(id)") + Done.carried(entry.done) })
    }
}
