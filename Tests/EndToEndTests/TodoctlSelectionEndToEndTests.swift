import Foundation
import Testing

/// What a bulk command acts on when its words select nothing, or
/// everything: a script's empty `"$ID"` must never take the whole list.
@Suite struct TodoctlSelectionEndToEndTests {
    @Test func anEmptyOrBlankSelectionIsRefusedAndChangesNothing() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let socket = daemon.socket
        for title in ["one", "two", "three"] { _ = try await todoctl("add", title, socket: socket) }
        _ = try await todoctl("done", "3", socket: socket)
        let before = try await todoctl("ls", "status:all", socket: socket).stdout

        // Each refusal says how to mean every item the command acts on.
        let refusals: [([String], String)] = [
            (["done", ""], "give --all or the query status:pending."),
            (["rm", ""], "give --all or the query status:all."),
            (["undone", ""], "give --all or the query status:completed."),
            (["done", "  "], "give --all or the query status:pending."),
            (["rm", "", "2"], "give --all or the query status:all."),
            (["modify", "--query", "", "+x"], "give the query status:pending."),
        ]
        for (words, how) in refusals {
            let refused = try await todoctl(arguments: words, socket: socket)
            #expect(refused.status == 64, "todoctl \(words): \(refused)")
            #expect(refused.stderr.contains("selects nothing") && refused.stderr.contains(how), "todoctl \(words): \(refused.stderr)")
            #expect(refused.stdout.isEmpty, "todoctl \(words): \(refused.stdout)")
        }
        #expect(try await todoctl("ls", "status:all", socket: socket).stdout == before, "an empty selection changed the list")

        // Every item, on purpose: --all, which asks (or wants --yes) as a query does.
        let all = try await todoctl("done", "--all", socket: socket)
        #expect(all.status == 0, "\(all)")
        #expect(all.stdout.split(separator: "\n").count == 2, "the two active items: \(all.stdout)")
        #expect(try await todoctl("done", "--all", "2", socket: socket).status == 64)
        #expect(try await todoctl("ls", socket: socket).stdout.contains("0 items left"))
    }

    /// Above 5 items without a terminal the refusal names the query, in
    /// quotes, and says the action as a sentence.
    @Test func aQueryMatchingManyItemsIsRefusedWithoutATerminalInWords() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let socket = daemon.socket
        for index in 1...7 { _ = try await todoctl("add", "errand \(index)", "+errands", socket: socket) }
        let done = try await todoctl("done", "+errands", socket: socket)
        #expect(done.status == 64)
        #expect(
            done.stderr == "todoctl: the query “+errands” matches 7 items; pass --yes to mark them done without a terminal, or --dry-run to see them\n",
            "\(done.stderr)")
        let removed = try await todoctl("rm", "--all", socket: socket)
        #expect(removed.status == 64)
        #expect(removed.stderr.hasPrefix("todoctl: --all selects 7 items; pass --yes to delete them without a terminal"), "\(removed.stderr)")
        #expect(try await todoctl("ls", socket: socket).stdout.contains("7 items left"))
    }

    @Test func aDateKeyAtTheEndOfTheQuerySaysTheQueryEnded() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let ended = try await todoctl("ls", "due.before:", socket: daemon.socket)
        #expect(ended.status == 65)
        #expect(ended.stderr.contains(#"expected a date after "due.before:", found the end of the query"#), "\(ended.stderr)")
    }
}
