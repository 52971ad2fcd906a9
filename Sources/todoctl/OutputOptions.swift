import ArgumentParser
import FoundationEssentials
import Glibc

/// When to use colour and symbols.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

/// The options of commands that print for people.
struct OutputOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Colour and symbols: auto (only on a terminal, never with NO_COLOR set or TERM=dumb), always or never.",
            valueName: "when"))
    var color: ColorChoice = .auto

    /// The style to print with, decided once per run.
    var style: TerminalStyle {
        TerminalStyle(enabled: Self.usesColor(color, isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment))
    }

    /// `always` and `never` are explicit and win; `auto` follows clig.dev and
    /// no-color.org: a terminal, and neither `NO_COLOR` (non-empty) nor `TERM=dumb`.
    static func usesColor(_ choice: ColorChoice, isTerminal: Bool, environment: [String: String]) -> Bool {
        switch choice {
        case .always: true
        case .never: false
        case .auto: isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        }
    }
}

/// Colour and symbols for a terminal, or plain text. It decorates texts the
/// view model already decided; it never changes their words.
struct TerminalStyle: Sendable {
    var enabled: Bool

    static let plain = TerminalStyle(enabled: false)

    /// The done mark: `[x]`/`[ ]`, or a green check and an empty box.
    func mark(done: Bool) -> String {
        guard enabled else { return done ? "[x]" : "[ ]" }
        return done ? paint("✔", "32") : "☐"
    }

    /// A finished item's title, dimmed.
    func doneTitle(_ text: String) -> String { paint(text, "2") }

    /// Text that needs attention now (an overdue date, a reminder), in bold red.
    func alert(_ text: String) -> String { paint(text, "1;31") }

    /// A heading, in bold.
    func bold(_ text: String) -> String { paint(text, "1") }

    /// Secondary text (ids, counters), dimmed.
    func quiet(_ text: String) -> String { paint(text, "2") }

    private func paint(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
