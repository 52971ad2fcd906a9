import ArgumentParser
import Foundation
import TodoClient
import TodoProtocol

struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a to-do item.",
        discussion: """
            The words are joined with spaces: `todoctl add buy milk` adds "buy milk".
            With no words and a terminal on stdin, todoctl asks for the title.
            """
    )

    @ParentCommand var todoctl: Todoctl

    @Option(help: "Due date: YYYY-MM-DD, or a date-time like 2026-12-24T18:00.")
    var due: String?

    @Argument(help: "The item's title.")
    var title: [String] = []

    func validate() throws {
        if title.isEmpty && isatty(STDIN_FILENO) != 1 {
            throw ValidationError("Give the item a title: todoctl add TITLE")
        }
    }

    func run() async throws {
        let words = title
        let due = due
        let result = try await withDaemon(todoctl.connection) { daemon in
            let title = words.isEmpty ? try await Self.ask(daemon) : words.joined(separator: " ")
            return try await TitleTooLong.naming(title) {
                try await daemon.call(AddTodo.self, .init(title: title, due: due))
            }
        }
        print(ListRendering.row(result.item))
    }

    /// Asks for a title with the daemon's prompt texts, until one is not blank.
    private static func ask(_ daemon: TodoConnection) async throws -> String {
        let prompt = try await daemon.call(GetAddPrompt.self, NoParams())
        FileHandle.standardError.write(Data("\(prompt.title)\n\(prompt.message) ".utf8))
        while let line = readLine() {
            if !line.allSatisfy(\.isWhitespace) { return line }
            FileHandle.standardError.write(Data("\(prompt.blankTitleMessage)\n\(prompt.message) ".utf8))
        }
        throw ExitCode(ClientFailure.refusedInput)
    }
}
