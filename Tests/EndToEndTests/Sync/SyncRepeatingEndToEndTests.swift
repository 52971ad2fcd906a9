import CalDAVServerSupport
import Foundation
import Testing

/// A repeating to-do completed on either side: here the occurrence is done
/// and the next one open, due one period later; on the server the to-do
/// it knew (its UID) stays the one open to-do, its due date moved on, and
/// each completed occurrence is a completed to-do of its own. Never two
/// open ones.
extension SyncEndToEndTests {
@Suite struct SyncRepeatingEndToEndTests {
    static let servers = SyncBasicsEndToEndTests.servers

    @Test(arguments: servers)
    func aRepeatingItemCompletedOnThePhoneThenHereMovesOnOnBothSides(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        try await list.todo("add", "water plants recur:weekly due:2026-12-01")
        try await list.syncNow()
        let uid = try await list.listTodo("water plants").uid
        #expect(try list.serverTodos().map(\.uid) == [uid])

        // Completed on the phone, as Thunderbird does it: the to-do with
        // the RRULE marked done.
        try list.phoneEdit("water plants", Self.completion)
        try await list.syncNow()

        let here = try await list.listTodos().filter { $0.summary == "water plants" }
        #expect(here.count == 2, "\(here)")
        #expect(here.filter(\.done).map(\.due) == ["20261201"], "\(here)")
        #expect(here.filter { !$0.done }.map(\.due) == ["20261208"], "\(here)")
        var there = try list.serverTodos().filter { $0.summary == "water plants" }
        #expect(there.filter { !$0.done }.map(\.uid) == [uid], "\(there)")
        #expect(there.filter { !$0.done }.map(\.due) == ["20261208"], "\(there)")
        #expect(there.filter(\.done).count == 1 && there.filter(\.done).allSatisfy { $0.uid != uid }, "\(there)")
        #expect(try await list.disagreements() == [])

        // Completed here.
        try await list.todo("done", try await list.id(of: "water plants"))
        try await list.syncNow()
        there = try list.serverTodos().filter { $0.summary == "water plants" }
        #expect(there.filter { !$0.done }.map(\.uid) == [uid], "\(there)")
        #expect(there.filter { !$0.done }.map(\.due) == ["20261215"], "\(there)")
        #expect(there.filter(\.done).count == 2, "\(there)")
        #expect(Set(there.map(\.uid)).count == 3, "\(there)")
        let listed = try await list.listTodos().filter { $0.summary == "water plants" }
        #expect(listed.filter { !$0.done }.map(\.due) == ["20261215"], "\(listed)")
        #expect(listed.count == 3, "\(listed)")
        #expect(try await list.disagreements() == [])
    }

    /// Completed on the phone while the list changed another field: the
    /// phone's completion still completes this occurrence (the next one
    /// open, with the list's change), not the repetition.
    @Test(arguments: servers)
    func aRepeatingItemCompletedOnThePhoneWhileEditedHereMovesOn(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        try await list.todo("add", "water plants recur:weekly due:2026-12-01")
        try await list.syncNow()
        let uid = try await list.listTodo("water plants").uid

        try await list.todo("modify", "1", "pri:H")
        try list.phoneEdit("water plants", Self.completion)
        try await list.syncNow()

        let here = try await list.listTodos().filter { $0.summary == "water plants" }
        #expect(here.filter(\.done).map(\.due) == ["20261201"], "\(here)")
        #expect(here.filter { !$0.done }.map(\.due) == ["20261208"], "\(here)")
        #expect(here.allSatisfy { $0.text.contains("PRIORITY:1") }, "\(here)")
        let there = try list.serverTodos().filter { $0.summary == "water plants" }
        #expect(there.filter { !$0.done }.map(\.uid) == [uid], "\(there)")
        #expect(there.filter { !$0.done }.map(\.due) == ["20261208"], "\(there)")
        #expect(there.filter(\.done).count == 1, "\(there)")
        #expect(try await list.disagreements() == [])
    }

    /// The same occurrence completed on both sides before a sync: one
    /// occurrence done, the next one open on both sides (under the UID the
    /// server knew), not the repetition ended nor two open ones.
    @Test(arguments: servers)
    func aRepeatingItemCompletedOnBothSidesMovesOnOnce(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        try await list.todo("add", "water plants recur:weekly due:2026-12-01")
        try await list.syncNow()
        let uid = try await list.listTodo("water plants").uid

        try await list.todo("done", "1")
        try list.phoneEdit("water plants", Self.completion)
        try await list.syncNow()

        let here = try await list.listTodos().filter { $0.summary == "water plants" }
        #expect(here.filter { !$0.done }.map(\.due) == ["20261208"], "\(here)")
        #expect(here.filter(\.done).map(\.due) == ["20261201"], "\(here)")
        let there = try list.serverTodos().filter { $0.summary == "water plants" }
        #expect(there.filter { !$0.done }.map(\.uid) == [uid], "\(there)")
        #expect(there.filter { !$0.done }.map(\.due) == ["20261208"], "\(there)")
        #expect(there.filter(\.done).map(\.due) == ["20261201"], "\(there)")
        #expect(try await list.disagreements() == [])
    }

    /// A phone completing a repeating to-do as Thunderbird does: the to-do
    /// with the RRULE marked done.
    static let completion = """
        todo['status'] = 'COMPLETED'
        todo.add('completed', now)
        todo['percent-complete'] = 100
        """
}
}
