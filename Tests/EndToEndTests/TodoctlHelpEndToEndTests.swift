import Foundation
import Testing

/// `todoctl --help` and every command's, as a terminal shows them.
@Suite struct TodoctlHelpEndToEndTests {
    /// Every command's help is written as paragraphs that the terminal's
    /// width wraps: at a width nothing needs wrapping, each paragraph is one
    /// line, and only indented examples stand on lines of their own.
    @Test func everyCommandsHelpBreaksLinesOnlyBetweenParagraphs() async throws {
        let wide = ["COLUMNS": "1000"]
        var commands: [[String]] = []
        var pending: [[String]] = [[]]
        while let command = pending.popLast() {
            commands.append(command)
            let help = try await todoctl(arguments: command + ["--help"], socket: "/nonexistent", environment: wide)
            pending += Self.subcommands(in: help.stdout).map { command + [$0] }
        }
        #expect(commands.count > 20, "\(commands)")
        for command in commands {
            let help = try await todoctl(arguments: command + ["--help"], socket: "/nonexistent", environment: wide).stdout
            let text = help.components(separatedBy: "\nUSAGE:")[0]
            let lines = text.components(separatedBy: "\n")
            for (line, next) in zip(lines, lines.dropFirst()) where !line.isEmpty && !line.hasPrefix(" ") {
                #expect(
                    next.isEmpty || next.hasPrefix(" "),
                    "todoctl \(command.joined(separator: " ")) --help breaks a paragraph: “\(line)” / “\(next)”")
            }
        }
    }

    /// The names listed under SUBCOMMANDS in a help text.
    static func subcommands(in help: String) -> [String] {
        guard let section = help.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first else { return [] }
        return section.components(separatedBy: "\n").prefix { !$0.isEmpty }.compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }.filter { $0 != "help" }
    }
}
