import Foundation
import Testing

/// `todoctl add` with no title, in a real terminal (a pty from util-linux's
/// `script`): it asks with the daemon's prompt texts and asks again after a
/// blank answer.
@Suite struct InteractiveAddTests {
    @Test func addWithoutATitleAsksInATerminal() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let screen = try await Self.addAtThePrompt(typing: "   \rmilk from a terminal\r", socket: daemon.socket)
        #expect(screen.contains("New To-Do Item"))
        #expect(screen.contains("Insert the title of the new to-do item:"))
        #expect(screen.contains("The title is blank."))
        #expect(try await todoctl("ls", socket: daemon.socket).stdout == "view main · filter all · sort created\n1  [ ] milk from a terminal\n1 item left\n")
    }

    /// What is typed at the prompt is read as shorthand, as the words of
    /// `todoctl add` are: the tag and priority are fields, not title words.
    @Test func theTitleTypedAtThePromptTakesShorthand() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        _ = try await Self.addAtThePrompt(typing: "call mum +family pri:H\r", socket: daemon.socket)
        let tagged = try await todoctl("ls", "+family", "--json", socket: daemon.socket)
        let state = try #require(try JSONSerialization.jsonObject(with: Data(tagged.stdout.utf8)) as? [String: Any])
        let rows = try #require(state["rows"] as? [[String: Any]])
        #expect(rows.count == 1, "\(tagged.stdout)")
        #expect(rows.first?["title"] as? String == "call mum", "\(tagged.stdout)")
        #expect(rows.first?["priority"] as? String == "H", "\(tagged.stdout)")
    }

    @Test func withoutATerminalATitleIsRequired() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let result = try await todoctl("add", socket: daemon.socket)
        #expect(result.status == 64)
        #expect(result.stderr.contains("todoctl add TITLE"))
    }

    /// Runs `todoctl add` with no words in a terminal, types `input` at its
    /// prompt, and returns what the terminal showed.
    static func addAtThePrompt(typing input: String, socket: String) async throws -> String {
        let output = OutputCollector()
        let command = "\(Binaries.todoctl.path) --socket \(socket) add"
        let terminal = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"], input: input, stdout: output)
        #expect(await terminal.waitForExit(timeout: .seconds(30)) == 0)
        await output.waitForEndOfFile()
        return output.text
    }
}
