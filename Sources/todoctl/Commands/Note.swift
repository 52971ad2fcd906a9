import ArgumentParser
import TodoProtocol

struct Note: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note",
        abstract: "Add a note to an item (one timestamped line), or remove one with --remove N.",
        discussion: "`todoctl note 3 called the plumber`; `todoctl note 3 --remove 1`. `todoctl show 3` lists the notes by number.")

    @ParentCommand var todoctl: Todoctl

    @Argument(help: "The item's id, as `todoctl ls` shows it.")
    var id: Int64

    @Option(help: "Remove note N (1 is the oldest) instead of adding one.")
    var remove: Int?

    @Argument(help: "The note.")
    var text: [String] = []

    func validate() throws {
        if remove == nil && text.isEmpty { throw ValidationError("Give the note's text, or --remove N.") }
        if remove != nil && !text.isEmpty { throw ValidationError("Give the note's text or --remove N, not both.") }
        if let remove, remove < 1 { throw ValidationError("Notes are numbered from 1.") }
    }

    func run() async throws {
        let (id, remove, text) = (id, remove, text.joined(separator: " "))
        let result = try await withDaemon(todoctl.connection) { daemon in
            if let remove {
                return try await daemon.call(RemoveTodoNote.self, .init(id: id, number: remove))
            }
            return try await daemon.call(AddTodoNote.self, .init(id: id, text: text))
        }
        print(ListRendering.row(result.item))
    }
}

struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show one item in full: every field, its notes, and when each field last changed.")

    @ParentCommand var todoctl: Todoctl

    @Argument(help: "The item's id, as `todoctl ls` shows it.")
    var id: Int64

    @Flag(help: "Print the item as JSON (the protocol's todo.get result).")
    var json = false

    func run() async throws {
        let id = id
        let details = try await withDaemon(todoctl.connection) { daemon in
            try await daemon.call(GetTodo.self, .init(id: id))
        }
        if json {
            print(ListRendering.json(details))
        } else {
            details.lines.forEach { print($0) }
        }
    }
}
