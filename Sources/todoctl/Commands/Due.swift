import ArgumentParser
import TodoProtocol

struct Due: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "due",
        abstract: "Set or clear an item's due date.",
        discussion: "DATE as people type it: today, tomorrow, fri, next week, eom, in 3 days, 24 dec, 2026-12-24, optionally with a time (fri 18:00); `none` clears it."
    )

    @ParentCommand var todoctl: Todoctl

    @Argument(help: "The item's id, as `todoctl ls` shows it.")
    var id: Int64

    @Argument(help: "A date (several words are fine: next week), or none.")
    var date: [String]

    func run() async throws {
        let text = date.joined(separator: " ")
        let (id, due) = (id, text == "none" ? nil : text)
        let result = try await withDaemon(todoctl.connection) { daemon in
            try await daemon.call(SetTodoDue.self, .init(id: id, due: due))
        }
        print(ListRendering.row(result.item))
    }
}
