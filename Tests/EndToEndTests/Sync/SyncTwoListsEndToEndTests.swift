import CalDAVServerSupport
import Foundation
import Testing

/// Two todods, each with its own list and its own todod-sync, syncing the
/// same collection (a laptop and a desktop): what each adds, edits or
/// deletes reaches the other through the server, edits of one item on
/// both are merged, and after a few rounds taken in turn both lists and
/// the server agree on every to-do and field.
extension SyncEndToEndTests {
@Suite struct SyncTwoListsEndToEndTests {
    static let servers = SyncBasicsEndToEndTests.servers

    @Test(arguments: servers)
    func twoListsSyncingOneCollectionEndUpTheSame(_ kind: CalDAVTestServer.Kind) async throws {
        let server = try SyncBasicsEndToEndTests.server(kind)
        defer { server.stop() }
        let laptop = try SyncedList(server: server)
        let desktop = try SyncedList(server: server)
        try await laptop.start()
        try await desktop.start()

        try await laptop.todo("add", "buy milk +errands")
        try await laptop.todo("add", "call mum due:2026-12-10")
        try await laptop.todo("add", "renew passport")
        try await laptop.syncNow()
        try await desktop.syncNow()
        #expect(try await desktop.listTodos().map(\.summary).sorted() == ["buy milk", "call mum", "renew passport"])

        // Each adds, edits and the laptop deletes, with no sync between.
        try await desktop.todo("add", "fix the bike")
        try await desktop.todo("add", "book dentist pri:M")
        try await desktop.todo("edit", try await desktop.id(of: "buy milk"), "buy oat milk")
        try await laptop.todo("modify", try await laptop.id(of: "call mum"), "due:2026-12-12")
        try await laptop.todo("rm", try await laptop.id(of: "renew passport"))
        try await laptop.todo("add", "water plants")
        for list in [desktop, laptop, desktop, laptop] { try await list.syncNow() }

        let expected = ["book dentist", "buy oat milk", "call mum", "fix the bike", "water plants"]
        #expect(try await laptop.listTodos().map(\.summary).sorted() == expected)
        #expect(try await desktop.listTodos().map(\.summary).sorted() == expected)

        // One item edited on both, in different fields: both edits kept on both.
        try await laptop.todo("modify", try await laptop.id(of: "fix the bike"), "pri:H")
        try await desktop.todo("modify", try await desktop.id(of: "fix the bike"), "+garage")
        for list in [laptop, desktop, laptop, desktop] { try await list.syncNow() }

        let bike = try await desktop.listTodo("fix the bike")
        #expect(bike.text.contains("PRIORITY:1") && bike.text.lowercased().contains("garage"), "\(bike.text)")
        #expect(try await laptop.disagreements() == [])
        #expect(try await desktop.disagreements() == [])
        let (laptopList, _) = try await laptop.convergence()
        let (desktopList, _) = try await desktop.convergence()
        #expect(laptopList == desktopList)
        #expect(laptopList.count == 5)
        #expect(try laptop.serverTodos().count == 5)
        for list in [laptop, desktop] {
            let status = try await list.status()
            #expect(status["pending"] as? Int == 0 && (status["conflicts"] as? [Any])?.isEmpty == true, "\(status)")
        }
    }
}
}
