import ArgumentParser
import TodoProtocol

struct Due: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "due",
        abstract: "Set or clear an item's due date.",
        discussion: "DATE is YYYY-MM-DD (due that day) or a date-time like 2026-12-24T18:00; `none` clears it."
    )

    @ParentCommand var todoctl: Todoctl

    @Argument(help: "The item's id, as `todoctl ls` shows it.")
    var id: Int64

    @Argument(help: "YYYY-MM-DD, a date-time, or none.")
    var date: String

    func run() async throws {
        let (id, due) = (id, date == "none" ? nil : date)
        let result = try await withDaemon(todoctl.connection) { daemon in
            try await daemon.call(SetTodoDue.self, .init(id: id, due: due))
        }
        print(ListRendering.row(result.item))
    }
}
