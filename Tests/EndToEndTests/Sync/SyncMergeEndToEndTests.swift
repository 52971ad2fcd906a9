import CalDAVServerSupport
import Foundation
import Testing

/// One to-do changed on both sides between two syncs, merged field by
/// field against what both last agreed on: different fields are both
/// kept; the same field goes to the later change (LAST-MODIFIED) and the
/// other value is kept as a "conflict: …" note that `sync status` counts;
/// an edit beats a deletion on either side. Each ends with the list and
/// the server agreeing.
extension SyncEndToEndTests {
@Suite struct SyncMergeEndToEndTests {
    static let servers = SyncBasicsEndToEndTests.servers

    @Test(arguments: servers)
    func editsOfDifferentFieldsOnBothSidesAreBothKept(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        try await list.todo("add", "call mum due:2026-12-10")
        try await list.todo("add", "pay rent")
        try await list.syncNow()

        // Sync is off between these: the list moves the due date and sets a
        // priority, the phone retitles.
        try await list.todo("modify", "1", "due:2026-12-12", "pri:H")
        try list.phoneEdit("call mum", "todo['summary'] = 'call mum and dad'")
        try await list.syncNow()

        let here = try await list.listTodo("call mum and dad")
        #expect(here.due == "20261212", "\(here.text)")
        #expect(here.text.contains("PRIORITY:1"), "\(here.text)")
        let there = try #require(try list.serverTodos().first { $0.uid == here.uid })
        #expect(there.summary == "call mum and dad" && there.due == "20261212", "\(there.text)")
        #expect(there.text.contains("PRIORITY:1"), "\(there.text)")
        #expect(!here.text.contains("conflict:"), "\(here.text)")
        let status = try await list.status()
        #expect((status["conflicts"] as? [Any])?.isEmpty == true, "\(status)")
        #expect(try await list.disagreements() == [])
    }

    /// A phone whose clock is an hour ahead: what it changes still comes
    /// in, what the list changes afterwards still goes out (changes are
    /// found by ETags and tokens, never by clocks), and where both changed
    /// one field the skewed stamp wins, but the other value is kept as a
    /// note: a clock decides which value is shown, never whether one is lost.
    @Test func aPhoneWhoseClockIsAnHourAheadLosesNothing() async throws {
        let list = try await SyncedList.started(on: .radicale)
        try await list.todo("add", "call mum")
        try await list.todo("add", "pay rent")
        try await list.syncNow()
        let ahead = "now + datetime.timedelta(hours=1)"

        try list.phoneEdit("pay rent", lastModified: ahead, "todo['summary'] = 'pay rent today'")
        try await list.syncNow()
        #expect(try await list.listTodo("pay rent today").summary == "pay rent today")
        try await list.todo("edit", try await list.id(of: "pay rent today"), "pay the rent")
        try await list.syncNow()
        #expect(try list.serverTodos().contains { $0.summary == "pay the rent" })

        try await list.todo("edit", try await list.id(of: "call mum"), "call mum on Sunday")
        try list.phoneEdit("call mum", lastModified: ahead, "todo['summary'] = 'call mum and dad'")
        try await list.syncNow()
        let shown = try await list.todo("show", try await list.id(of: "call mum and dad"))
        #expect(shown.contains("conflict: todod set the title to “call mum on Sunday”"), "\(shown)")
        #expect(try await list.disagreements() == [])
    }

    /// The phone's title is a minute later than the list's: it wins, and
    /// the list's title is kept as a note.
    @Test(arguments: servers)
    func theSameFieldGoesToThePhonesLaterChangeAndTheListsIsKeptAsANote(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        try await list.todo("add", "call mum")
        try await list.syncNow()

        try await list.todo("edit", "1", "call mum on Sunday")
        let listStamp = try #require(Self.lastModified(of: try await list.listTodo("call mum on Sunday")))
        try list.phoneEdit(
            "call mum",
            lastModified: "datetime.datetime.strptime('\(listStamp)', '%Y%m%dT%H%M%SZ').replace(tzinfo=datetime.timezone.utc)"
                + " + datetime.timedelta(minutes=1)",
            "todo['summary'] = 'call mum and dad'")
        try await list.syncNow()

        let shown = try await list.todo("show", "1")
        #expect(shown.contains("call mum and dad"), "\(shown)")
        #expect(shown.contains("conflict: todod set the title to “call mum on Sunday”"), "\(shown)")
        let uid = try await list.listTodo("call mum and dad").uid
        let there = try #require(try list.serverTodos().first { $0.uid == uid })
        #expect(there.summary == "call mum and dad", "\(there.text)")
        #expect(there.text.contains("conflict: todod set the title to “call mum on Sunday”"), "\(there.text)")
        let conflicts = try #require(try await list.status()["conflicts"] as? [[String: Any]])
        #expect(conflicts.count == 1, "\(conflicts)")
        #expect((conflicts.first?["note"] as? String)?.contains("call mum on Sunday") == true, "\(conflicts)")
        #expect(try await list.disagreements() == [])

        // Settled: another round finds nothing to merge.
        try await list.syncNow()
        #expect((try await list.status()["conflicts"] as? [Any])?.count == 1)
        #expect(try await list.disagreements() == [])
    }

    /// The list's title is a minute later than the phone's: it wins, and
    /// the phone's title is kept as a note naming the phone.
    @Test(arguments: servers)
    func theSameFieldGoesToTheListsLaterChangeAndThePhonesIsKeptAsANote(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        try await list.todo("add", "call mum")
        try await list.syncNow()

        try list.phoneEdit("call mum", lastModified: "now - datetime.timedelta(minutes=1)", "todo['summary'] = 'call mum and dad'")
        try await list.todo("edit", "1", "call mum on Sunday")
        try await list.syncNow()

        let shown = try await list.todo("show", "1")
        #expect(shown.contains("call mum on Sunday"), "\(shown)")
        #expect(shown.contains("conflict: Phone Tasks set the title to “call mum and dad”"), "\(shown)")
        let here = try await list.listTodo("call mum on Sunday")
        let there = try #require(try list.serverTodos().first { $0.uid == here.uid })
        #expect(there.summary == "call mum on Sunday", "\(there.text)")
        #expect(there.text.contains("conflict: Phone Tasks set the title to “call mum and dad”"), "\(there.text)")
        let conflicts = try #require(try await list.status()["conflicts"] as? [[String: Any]])
        #expect(conflicts.count == 1, "\(conflicts)")
        #expect(try await list.disagreements() == [])
    }

    /// Deleted here, edited on the phone: the edit wins, and the item comes back here.
    @Test(arguments: servers)
    func anItemDeletedHereAndEditedOnThePhoneComesBack(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        try await list.todo("add", "call mum +family")
        try await list.todo("add", "pay rent")
        try await list.syncNow()
        let uid = try await list.listTodo("call mum").uid

        try await list.todo("rm", "1")
        try list.phoneEdit("call mum", "todo['summary'] = 'call mum and dad'")
        try await list.syncNow()

        let back = try await list.listTodo("call mum and dad")
        #expect(back.uid == uid)
        #expect(try await list.id(of: "call mum and dad") != "")
        #expect(try list.serverTodos().map(\.summary).sorted() == ["call mum and dad", "pay rent"])
        #expect(try await list.disagreements() == [])
        try await list.syncNow()
        #expect(try await list.listTodos().count == 2)
        #expect(try await list.disagreements() == [])
    }

    /// Edited here, deleted on the phone: the edit wins, and the item goes back to the server.
    @Test(arguments: servers)
    func anItemEditedHereAndDeletedOnThePhoneGoesBack(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        try await list.todo("add", "call mum")
        try await list.todo("add", "pay rent")
        try await list.syncNow()
        let uid = try await list.listTodo("call mum").uid

        try await list.todo("edit", "1", "call mum and dad")
        try list.phoneDelete("call mum")
        try await list.syncNow()

        let onServer = try list.serverTodos()
        #expect(onServer.map(\.summary).sorted() == ["call mum and dad", "pay rent"], "\(onServer)")
        #expect(onServer.first { $0.summary == "call mum and dad" }?.uid == uid)
        #expect(try await list.listTodos().map(\.summary).sorted() == ["call mum and dad", "pay rent"])
        #expect(try await list.disagreements() == [])
        try await list.syncNow()
        #expect(try list.serverTodos().count == 2)
        #expect(try await list.disagreements() == [])
    }

    /// The LAST-MODIFIED value of a to-do, as written (`20261127T101500Z`).
    static func lastModified(of todo: SyncedList.Todo) -> String? {
        todo.text.split(separator: "\n").first { $0.hasPrefix("LAST-MODIFIED:") }.map { String($0.dropFirst("LAST-MODIFIED:".count)) }
    }
}
}
