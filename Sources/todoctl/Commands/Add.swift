import ArgumentParser
import FoundationEssentials
import Glibc
import TodoClient
import TodoProtocol

struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a to-do item: todoctl add buy milk +errands pro:home pri:H due:fri",
        discussion: """
            The words are joined with spaces: `todoctl add buy milk` adds "buy milk". Shorthand among them sets \
            fields: +tag, project:home.garden (pro:), priority:H|M|L (pri:), due:DATE, wait:DATE, recur:weekly \
            (daily, weekdays, weekly, monthly, yearly, every 3 days, … from completion). Dates: today, tomorrow, \
            fri, next week, eom, in 3 days, 24 dec, 2026-12-24, with an optional time (fri 18:00, tomorrow 9am). \
            A `--` word ends the shorthand (`todoctl add -- +1 for Bob`); --literal takes every word as title. \
            With no words and a terminal on stdin, todoctl asks for the title, shorthand and all.
            """
    )

    @ParentCommand var todoctl: Todoctl

    @Option(help: "Due date: fri, tomorrow 9am, 2026-12-24, … (as due: in the shorthand).")
    var due: String?

    @Flag(help: "Take every word as the title: no shorthand.")
    var literal = false

    // `.allUnrecognized`: "-20% sale" is a title, not an option.
    @Argument(parsing: .allUnrecognized, help: "The item's title, with shorthand.")
    var title: [String] = []

    func validate() throws {
        if title.isEmpty && isatty(STDIN_FILENO) != 1 {
            throw ValidationError("Give the item a title: todoctl add TITLE")
        }
    }

    func run() async throws {
        let (words, due, literal) = (title, due, literal)
        let result = try await withDaemon(todoctl.connection) { daemon in
            if literal {
                let title = words.isEmpty ? try await Self.ask(daemon) : words.joined(separator: " ")
                return try await TitleTooLong.naming(title) {
                    try await daemon.call(AddTodo.self, .init(title: title, due: due))
                }
            }
            // What is typed at the prompt is shorthand too, as the command
            // line's words and the watch screen's `a` are.
            let text = words.isEmpty ? try await Self.ask(daemon) : Shorthand.joined(words)
            return try await TitleTooLong.naming(text) {
                try await daemon.call(AddTodo.self, .init(text: text, due: due))
            }
        }
        print(ListRendering.row(result.item))
    }

    /// Asks for a title with the daemon's prompt texts, until one is not blank.
    private static func ask(_ daemon: any DaemonCalls) async throws -> String {
        let prompt = try await daemon.call(GetAddPrompt.self, NoParams())
        StandardStreams.write("\(prompt.title)\n\(prompt.message) ", to: STDERR_FILENO)
        while let line = readLine() {
            if !line.allSatisfy(\.isWhitespace) { return line }
            StandardStreams.write("\(prompt.blankTitleMessage)\n\(prompt.message) ", to: STDERR_FILENO)
        }
        throw ExitCode(ClientFailure.refusedInput)
    }
}
