import ArgumentParser
import BuildInfo
import TodoProtocol

/// `todoctl`: the command-line client of todod.
@main
struct Todoctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todoctl",
        abstract: "Add, list and finish to-do items kept by the todod daemon.",
        discussion: """
            todoctl talks to todod over its Unix socket ($XDG_RUNTIME_DIR/todod/todod.sock unless \
            --socket or $TODOD_SOCKET say otherwise). Several todoctl processes can work on the same \
            list at once; `todoctl watch` shows every change as it happens.

            Exit codes: 0 success, 64 usage error, 65 refused (a blank title, a title too long, a bad \
            date, nothing to undo), 66 no such item (or note, or named view), 69 todod unreachable, 70 unexpected reply, 74 todod could not \
            store the change, 75 todod did not answer in time, 78 todod will not start (todod.conf or the store \
            needs fixing; the message says what).
            """,
        version: VersionText.full,
        subcommands: [
            Add.self, List.self, Done.self, Undone.self, Modify.self, Note.self, Show.self, Edit.self, Due.self, Remove.self,
            ViewCommand.self,
            ToggleAllCommand.self, Clear.self, UndoCommand.self, RedoCommand.self, FilterCommand.self, SortCommand.self,
            Import.self, Export.self, Watch.self, Notify.self, SyncCommand.self, WebCommand.self, Status.self, Call.self, Completion.self,
        ]
    )

    @OptionGroup var connection: ConnectionOptions
}
