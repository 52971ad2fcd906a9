import Foundation
import Testing

/// `todoctl watch` in a real terminal (tmux): live updates, keys, resize, and
/// a terminal left as it was found.
@Suite struct LiveWatchEndToEndTests {
    @Test func theLiveScreenFollowsEditsTakesKeysAndRestoresTheTerminal() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        _ = try await todoctl("add", "milk", socket: daemon.socket)
        _ = try await todoctl("add", "bread", socket: daemon.socket)

        let terminal = try await TmuxSession(columns: 60, rows: 16)
        let before = daemon.directory.appendingPathComponent("before.stty").path
        let after = daemon.directory.appendingPathComponent("after.stty").path
        try await terminal.type("stty -g > '\(before)'")
        try await terminal.type(
            "NO_COLOR=1 '\(Binaries.todoctl.path)' --socket '\(daemon.socket)' watch; echo \"watch exited $?\"; stty -g > '\(after)'")
        var screen = try await terminal.waitForScreen { $0.contains("2 items left") && $0.contains("› 1  [ ] milk") }
        #expect(screen.met, "\(screen.screen)")
        #expect(screen.screen.contains("view main · filter all · sort created"), "\(screen.screen)")

        // An add from another process appears, pushed.
        _ = try await todoctl("add", "eggs", socket: daemon.socket)
        screen = try await terminal.waitForScreen { $0.contains("3  [ ] eggs") && $0.contains("3 items left") }
        #expect(screen.met, "\(screen.screen)")

        // Down, then space: the selected item is toggled through the daemon.
        try await terminal.press("j")
        screen = try await terminal.waitForScreen { $0.contains("› 2  [ ] bread") }
        #expect(screen.met, "\(screen.screen)")
        try await terminal.press("Space")
        screen = try await terminal.waitForScreen { $0.contains("› 2  [x] bread") && $0.contains("2 items left") }
        #expect(screen.met, "\(screen.screen)")
        let listed = try await todoctl("ls", socket: daemon.socket)
        #expect(listed.stdout.contains("2  [x] bread"), "\(listed.stdout)")

        // f switches the shared filter (ls elsewhere sees it), but only when
        // pressed twice: the first press says every terminal would see it.
        try await terminal.press("f")
        screen = try await terminal.waitForScreen { $0.contains("press f again") }
        #expect(screen.met && screen.screen.contains("filter all"), "\(screen.screen)")
        try await terminal.press("f")
        screen = try await terminal.waitForScreen { $0.contains("filter active") && !$0.contains("bread") }
        #expect(screen.met, "\(screen.screen)")
        try await terminal.press("u")
        screen = try await terminal.waitForScreen { $0.contains("2  [ ] bread") && $0.contains("3 items left") }
        #expect(screen.met, "\(screen.screen)")

        // A narrow terminal cuts long rows; widening redraws them whole.
        let title = "a title long enough to run past sixty columns of terminal, surely"
        _ = try await todoctl("add", title, socket: daemon.socket)
        screen = try await terminal.waitForScreen { $0.contains("4  [ ] a title long enough") }
        #expect(screen.met && !screen.screen.contains(title), "\(screen.screen)")
        try await terminal.resize(columns: 100, rows: 16)
        screen = try await terminal.waitForScreen { $0.contains(title) }
        #expect(screen.met, "\(screen.screen)")

        // Ctrl-C quits with 0 and leaves the terminal's settings as they were.
        try await terminal.press("C-c")
        screen = try await terminal.waitForScreen { $0.contains("watch exited 0") }
        #expect(screen.met, "\(screen.screen)")
        try await terminal.type("cmp '\(before)' '\(after)' && echo same settings")
        screen = try await terminal.waitForScreen { $0.contains("same settings") }
        #expect(screen.met, "\(screen.screen)")
    }
}
