import Foundation
import Testing

/// Subtasks and dependencies through `todoctl` and the real daemon: the
/// tree in `ls`, the path to a matching subtask, `--flat`, blocked items,
/// a cycle refused naming it, and a parent's subtasks going with it.
@Suite struct TodoctlLinksEndToEndTests {
    @Test func treesAndDependenciesFromTheCommandLine() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let socket = daemon.socket
        for words in [
            ["add", "paint", "the", "house"], ["add", "buy", "paint", "+shop", "parent:1"], ["add", "walls", "parent:1", "depends:2"],
            ["add", "brushes", "+shop", "parent:2"], ["add", "garden"],
        ] {
            let added = try await todoctl(arguments: words, socket: socket)
            #expect(added.status == 0, "\(words): \(added.stderr)")
        }
        let tree = try await todoctl("ls", socket: socket)
        #expect(
            tree.stdout.split(separator: "\n").dropFirst().prefix(5).map(String.init) == [
                "1  [ ] paint the house", "2    [ ] buy paint  +shop · Subtask of: 1", "4      [ ] brushes  +shop · Subtask of: 2",
                "3    [ ] walls (blocked)  Depends on: 2 · Subtask of: 1", "5  [ ] garden",
            ], "\(tree.stdout)")

        // A query that matches subtasks shows the path to them.
        let shop = try await todoctl("ls", "+shop", socket: socket)
        #expect(shop.stdout.contains("1      paint the house\n"), "\(shop.stdout)")
        #expect(shop.stdout.hasSuffix("2 items left\n"), "\(shop.stdout)")
        let flat = try await todoctl("ls", "+shop", "--flat", socket: socket)
        #expect(!flat.stdout.contains("paint the house"), "\(flat.stdout)")
        #expect(flat.stdout.contains("4  [ ] brushes"), "\(flat.stdout)")
        let blocked = try await todoctl("ls", "blocked", "--flat", socket: socket)
        #expect(blocked.stdout.contains("3  [ ] walls"), "\(blocked.stdout)")

        // A cycle is refused, naming it; nothing changes.
        let cycle = try await todoctl("modify", "2", "depends:3", socket: socket)
        #expect(cycle.status == 65, "\(cycle.stdout)\(cycle.stderr)")
        #expect(cycle.stderr.contains("depends: this would make a cycle, 2 → 3 → 2"), "\(cycle.stderr)")
        let missing = try await todoctl("add", "x", "parent:99", socket: socket)
        #expect(missing.stderr.contains("there is no item 99"), "\(missing.stderr)")

        // Done with the blocker: walls is no longer blocked; and completing
        // the house completes what is under it, in one undo step.
        #expect(try await todoctl("done", "2", socket: socket).stdout.contains("and 1 open subtask"))
        #expect(try await todoctl("ls", "blocked", socket: socket).stdout.contains("0 items left"))
        let house = try await todoctl("done", "1", socket: socket)
        #expect(house.stdout.contains("and 1 open subtask"), "\(house.stdout)")
        let json = try await todoctl("ls", "--json", socket: socket)
        let state = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let rows = try #require(state["rows"] as? [[String: Any]])
        #expect(rows.filter { $0["done"] as? Bool == true }.count == 4)
        #expect(rows.first { $0["id"] as? Int == 4 }?["depth"] as? Int == 2)
        #expect((rows.first { $0["id"] as? Int == 3 }?["values"] as? [String: Any])?["depends"] as? [Int] == [2])
        #expect(try await todoctl("undo", socket: socket).status == 0)
        #expect(try await todoctl("ls", "status:pending", socket: socket).stdout.contains("3 items left"))

        let shown = try await todoctl("show", "1", socket: socket)
        #expect(shown.stdout.contains("subtasks    2, 3 (1 open)"), "\(shown.stdout)")

        // Removing a parent and a subtask of it at once: one step, both gone.
        let removed = try await todoctl("rm", "2", "4", socket: socket)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stdout == "removed 2\n   (delete “buy paint” and 1 subtask)\nremoved 4 (already, above)\n", "\(removed.stdout)")
    }
}
