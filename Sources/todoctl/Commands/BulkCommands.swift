import ArgumentParser
import FoundationEssentials
import Glibc
import TodoProtocol

/// Runs a command that is not about one item and prints what it did:
/// `done: …`, or, for undo and redo, todod's own words (`undid: …`).
private func runBulk<M: RPCMethod>(_ method: M.Type, _ connection: ConnectionOptions, prefix: String = "done: ") async throws
where M.Params == NoParams, M.Result == CommandResult {
    let result = try await withDaemon(connection) { daemon in
        try await daemon.call(M.self, NoParams())
    }
    print(result.done.map { prefix + $0 } ?? "nothing to change")
}

struct ToggleAllCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "toggle-all",
        abstract: "Mark every item done; if all already are, mark them all active again.")

    @ParentCommand var todoctl: Todoctl

    func run() async throws { try await runBulk(ToggleAll.self, todoctl.connection) }
}

struct Clear: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Delete every completed item (undo brings them back).",
        discussion: "Asks first when stdin is a terminal; --yes skips the question. Without a terminal, --yes is required.")

    @ParentCommand var todoctl: Todoctl

    @Flag(name: [.customLong("yes"), .customLong("no-input")], help: "Do not ask for confirmation.")
    var yes = false

    func run() async throws {
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                ClientFailure.printError("todoctl: clear deletes every completed item; pass --yes to confirm without a terminal")
                throw ExitCode.validationFailure
            }
            StandardStreams.write("Delete every completed item? [y/N] ", to: STDERR_FILENO)
            guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                ClientFailure.printError("todoctl: nothing cleared")
                return
            }
        }
        try await runBulk(ClearCompleted.self, todoctl.connection)
    }
}

struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "undo", abstract: "Undo the last command (also after a restart).")

    @ParentCommand var todoctl: Todoctl

    func run() async throws { try await runBulk(Undo.self, todoctl.connection, prefix: "") }
}

struct RedoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "redo", abstract: "Redo the last undone command.")

    @ParentCommand var todoctl: Todoctl

    func run() async throws { try await runBulk(Redo.self, todoctl.connection, prefix: "") }
}
