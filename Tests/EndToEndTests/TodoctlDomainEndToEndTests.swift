import Foundation
import Testing

/// The domain commands through `todoctl` and the real daemon: edit, due
/// dates, filters and sorts, toggle-all, clear, undo and redo (also across a
/// restart), and the shared view's saved options.
@Suite struct TodoctlDomainEndToEndTests {
    @Test func editDueFilterAndSort() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let socket = daemon.socket
        #expect(try await todoctl("add", "--due", "2999-12-24", "zebra", socket: socket).stdout == "1  [ ] zebra  (due 2999-12-24)\n")
        #expect(try await todoctl("add", "Apple", socket: socket).status == 0)
        #expect(try await todoctl("add", "--due", "1999-01-01", "mango", socket: socket).stdout.contains("overdue"))

        let edited = try await todoctl("edit", "2", "  apple pie ", socket: socket)
        #expect(edited.stdout == "2  [ ] apple pie\n")
        #expect(try await todoctl("edit", "2", "   ", socket: socket).status == 65)
        #expect(try await todoctl("due", "2", "2999-01-01T09:30", socket: socket).stdout.contains("(due 2999-01-01 at 09:30)"))
        #expect(try await todoctl("due", "2", "someday", socket: socket).status == 65)
        #expect(try await todoctl("due", "3", "none", socket: socket).stdout == "3  [ ] mango\n")

        let byTitle = try await todoctl("ls", "--sort", "title", socket: socket)
        #expect(byTitle.stdout.split(separator: "\n").dropFirst().prefix(3).map { String($0.split(separator: " ")[0]) } == ["2", "3", "1"])
        let byDue = try await todoctl("ls", "--sort", "due", socket: socket)
        #expect(byDue.stdout.split(separator: "\n").dropFirst().prefix(3).map { String($0.split(separator: " ")[0]) } == ["2", "1", "3"])

        _ = try await todoctl("done", "1", socket: socket)
        let active = try await todoctl("ls", "--filter", "active", socket: socket)
        #expect(!active.stdout.contains("zebra"))
        let completed = try await todoctl("ls", "--filter", "completed", "--json", socket: socket)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(completed.stdout.utf8)) as? [String: Any])
        #expect((json["rows"] as? [[String: Any]])?.map { $0["title"] as? String } == ["zebra"])
        #expect((json["properties"] as? [String: Any])?["filter"] as? String == "completed")
        // The shared view was not changed by those listings.
        #expect(try await todoctl("ls", socket: socket).stdout.contains("apple pie"))
    }

    @Test func toggleAllClearUndoRedoAcrossARestart() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let socket = daemon.socket
        for title in ["one", "two", "three"] { _ = try await todoctl("add", title, socket: socket) }

        #expect(try await todoctl("toggle-all", socket: socket).stdout == "done: mark all done\n")
        #expect(try await todoctl("ls", socket: socket).stdout.hasSuffix("0 items left\n"))

        let unconfirmed = try await todoctl("clear", socket: socket)  // stdin is not a terminal
        #expect(unconfirmed.status == 64)
        #expect(unconfirmed.stderr.contains("--yes"))
        #expect(try await todoctl("clear", "--yes", socket: socket).stdout == "done: clear 3 completed items\n")
        #expect(try await todoctl("ls", socket: socket).stdout == "view main · filter all · sort created\nNothing to do. Add an item with: todoctl add TITLE\n0 items left\n")

        #expect(try await daemon.terminate() == 0)
        try await daemon.start()
        #expect(try await todoctl("undo", socket: socket).stdout == "undid: clear 3 completed items (3 items are back)\n")
        #expect(try await todoctl("ls", socket: socket).stdout == "view main · filter all · sort created\n1  [x] one\n2  [x] two\n3  [x] three\n0 items left\n")
        #expect(try await todoctl("undo", socket: socket).stdout == "undid: mark all done (3 items changed)\n")
        #expect(try await todoctl("redo", socket: socket).stdout == "redid: mark all done (3 items changed)\n")
        // One item: what came back, or went, by name.
        _ = try await todoctl("rm", "2", socket: socket)
        #expect(try await todoctl("undo", socket: socket).stdout == "undid: delete “two” (“two” is back)\n")
        #expect(try await todoctl("redo", socket: socket).stdout == "redid: delete “two” (“two” is gone)\n")
        _ = try await todoctl("add", "four", socket: socket)
        let nothing = try await todoctl("redo", socket: socket)
        #expect(nothing.status == 65)
        #expect(nothing.stderr.contains("nothing to redo"))
    }

    @Test func theSharedViewsOptionsAreSharedAndSurviveARestart() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        _ = try await todoctl("add", "b", socket: daemon.socket)
        _ = try await todoctl("add", "a", socket: daemon.socket)

        let watcher = try RawConnection(path: daemon.socket, readGreeting: true)
        try watcher.send(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe"}"# + "\n")
        _ = try watcher.readMessage()
        let setter = try RawConnection(path: daemon.socket, readGreeting: true)
        try setter.send(#"{"jsonrpc":"2.0","id":1,"method":"view.setOptions","params":{"sort":"title"}}"# + "\n")
        #expect(try setter.readMessage()["result"] != nil)
        let event = try watcher.readMessage()
        let params = try #require(event["params"] as? [String: Any])
        #expect((params["properties"] as? [String: Any])?["sort"] as? String == "title")

        #expect(try await daemon.terminate() == 0)
        try await daemon.start()
        #expect(try await todoctl("ls", socket: daemon.socket).stdout.hasPrefix("view main · filter all · sort title\n2  [ ] a\n1  [ ] b\n"))
    }
}
