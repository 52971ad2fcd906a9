import Foundation
import Testing

/// `todoctl` against a real `todod` over a real socket.
@Suite struct TodoctlEndToEndTests {
    @Test func addListDoneUndoneRemove() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let socket = daemon.socket

        let added = try await todoctl("add", "  buy", "milk ", socket: socket)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "1  [ ] buy milk\n")
        _ = try await todoctl("add", "walk the dog", socket: socket)

        #expect(try await todoctl("ls", socket: socket).stdout == "view main · filter all · sort created\n1  [ ] buy milk\n2  [ ] walk the dog\n2 items left\n")

        let done = try await todoctl("done", "1", socket: socket)
        #expect(done.status == 0)
        #expect(done.stdout == "1  [x] buy milk\n")
        #expect(try await todoctl("ls", socket: socket).stdout.hasSuffix("1 item left\n"))

        #expect(try await todoctl("undone", "1", socket: socket).stdout == "1  [ ] buy milk\n")

        let removed = try await todoctl("rm", "1", socket: socket)
        #expect(removed.status == 0)
        #expect(try await todoctl("ls", socket: socket).stdout == "view main · filter all · sort created\n2  [ ] walk the dog\n1 item left\n")
    }

    @Test func listAsJSONIsTheViewModel() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        _ = try await todoctl("add", "a", socket: daemon.socket)
        _ = try await todoctl("add", "b", socket: daemon.socket)
        _ = try await todoctl("done", "2", socket: daemon.socket)

        let listed = try await todoctl("ls", "--json", socket: daemon.socket)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let properties = try #require(object["properties"] as? [String: Any])
        #expect(properties["itemsLeft"] as? String == "1 item left")
        #expect(properties["activeCount"] as? Int == 1)
        #expect(properties["completedCount"] as? Int == 1)
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.map { $0["title"] as? String } == ["a", "b"])
        #expect(rows.map { $0["done"] as? Bool } == [false, true])
    }

    @Test func refusalsHaveTheirOwnExitCodesAndChangeNothing() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        _ = try await todoctl("add", "keep", socket: daemon.socket)

        let blank = try await todoctl("add", "   ", socket: daemon.socket)
        #expect(blank.status == 65)
        #expect(blank.stderr.contains("The title is blank"))

        let missing = try await todoctl("done", "42", socket: daemon.socket)
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("no to-do item with id 42"))

        let usage = try await todoctl("done", socket: daemon.socket)
        #expect(usage.status == 64)

        #expect(try await todoctl("ls", socket: daemon.socket).stdout == "view main · filter all · sort created\n1  [ ] keep\n1 item left\n")
    }

    @Test func anUnreachableDaemonIsOneClearLine() async throws {
        let socket = "/tmp/todod-e2e-nobody-\(UUID().uuidString.prefix(8)).sock"
        let result = try await todoctl("ls", socket: socket)
        #expect(result.status == 69)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(result.stderr.contains(socket))
        #expect(result.stderr.contains("systemctl --user start todod.socket"))
    }
}
