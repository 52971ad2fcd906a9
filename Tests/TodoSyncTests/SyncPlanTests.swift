import Foundation
import Testing

@testable import TodoSync

/// The plan's decision table, one row at a time: for a to-do both sides
/// know, each side is the same as agreed, changed, or deleted, and the plan
/// says what to write, where. (`SyncPlanPropertyTests` drives the same plan
/// through seeded sequences of all of them.)
@Suite struct SyncPlanTests {
    static let agreed = "20261201T100000Z"
    static let later = "20261202T100000Z"

    func vtodo(_ uid: String, _ summary: String, modified: String = agreed) throws -> TodoComponent {
        try todo(["UID:" + uid, "DTSTAMP:" + modified, "LAST-MODIFIED:" + modified, "SUMMARY:" + summary])
    }

    func record(_ todo: TodoComponent, etag: String = "\"1\"") -> SyncRecord {
        SyncRecord(uid: todo.uid!, href: "/cal/\(todo.uid!).ics", etag: etag, base: todo.text, resource: CalendarResource(todo: todo).text(productID: "-//test//EN"))
    }

    func remote(_ todo: TodoComponent, etag: String) -> SyncPlan.Remote {
        let resource = CalendarResource(todo: todo)
        return SyncPlan.Remote(href: "/cal/\(todo.uid!).ics", etag: etag, text: resource.text(productID: "-//test//EN"), resource: resource)
    }

    func plan(
        records: [SyncRecord] = [], local: [TodoComponent] = [], remote: [SyncPlan.Remote] = [], removed: Set<String> = []
    ) -> SyncPlan {
        SyncPlan(
            records: Dictionary(uniqueKeysWithValues: records.map { ($0.uid, $0) }),
            local: Dictionary(uniqueKeysWithValues: local.map { ($0.uid!, $0) }),
            remote: Dictionary(uniqueKeysWithValues: remote.map { ($0.resource.todo.uid!, $0) }), removedHrefs: removed, problemHrefs: [],
            hrefForUID: { "/cal/\($0).ics" }, localName: "todod", now: syncTime, timeZone: .berlin)
    }

    @Test func aChangeHereGoesToTheServerWhileItsVersionIsTheOneAgreed() throws {
        let base = try vtodo("a", "milk")
        let plan = plan(records: [record(base, etag: "\"7\"")], local: [try vtodo("a", "oat milk", modified: Self.later)])
        #expect(plan.pushes.map(\.uid) == ["a"] && plan.pushes.first?.etag == "\"7\"")
        #expect(plan.toApply.isEmpty && plan.deletes.isEmpty && plan.remove.isEmpty)
    }

    @Test func aChangeThereComesHereAndIsAgreed() throws {
        let base = try vtodo("a", "milk")
        let plan = plan(records: [record(base)], local: [base], remote: [remote(try vtodo("a", "oat milk", modified: Self.later), etag: "\"2\"")])
        #expect(plan.toApply.map(\.uid) == ["a"] && plan.pulled == 1)
        #expect(plan.agreed["a"]?.etag == "\"2\"")
        #expect(plan.pushes.isEmpty)
    }

    @Test func changesOnBothSidesAreMergedAndTheMergeGoesBothWays() throws {
        let base = try vtodo("a", "milk")
        let here = try todo(["UID:a", "DTSTAMP:" + Self.later, "LAST-MODIFIED:" + Self.later, "SUMMARY:milk", "CATEGORIES:shop"])
        let there = try vtodo("a", "oat milk", modified: Self.later)
        let plan = plan(records: [record(base)], local: [here], remote: [remote(there, etag: "\"2\"")])
        // The merge is applied here, and what the list then holds goes out.
        let merged = try #require(plan.toApply.first)
        #expect(merged.first("SUMMARY")?.value == "oat milk" && merged.first("CATEGORIES")?.value == "shop", "\(merged.text)")
        #expect(plan.pushes.first?.etag == "\"2\"", "written over the server's version it was merged with")
    }

    @Test func anEditWinsOverADeletionOnTheOtherSide() throws {
        let base = try vtodo("a", "milk")
        let editedHere = plan(records: [record(base)], local: [try vtodo("a", "oat milk", modified: Self.later)], removed: ["/cal/a.ics"])
        #expect(editedHere.pushes.map(\.uid) == ["a"] && editedHere.pushes.first?.etag == nil, "made again on the server")
        #expect(editedHere.remove.isEmpty && editedHere.deletes.isEmpty)

        let editedThere = plan(records: [record(base)], local: [], remote: [remote(try vtodo("a", "oat milk", modified: Self.later), etag: "\"2\"")])
        #expect(editedThere.toApply.map(\.uid) == ["a"] && editedThere.deletes.isEmpty)
    }

    @Test func aDeletionOnOneSideOfWhatTheOtherLeftAloneIsTheOnlyDeletion() throws {
        let base = try vtodo("a", "milk")
        let deletedHere = plan(records: [record(base, etag: "\"3\"")], local: [])
        #expect(deletedHere.deletes == [SyncPlan.Delete(uid: "a", href: "/cal/a.ics", etag: "\"3\"")])
        let deletedThere = plan(records: [record(base)], local: [base], removed: ["/cal/a.ics"])
        #expect(deletedThere.remove == ["a"] && deletedThere.pushes.isEmpty)
        let deletedOnBoth = plan(records: [record(base)], local: [], removed: ["/cal/a.ics"])
        #expect(deletedOnBoth.forgotten == ["a"] && deletedOnBoth.deletes.isEmpty && deletedOnBoth.remove.isEmpty)
    }

    @Test func withoutARecordNothingIsDeletedAndWhatOneSideHasIsCopied() throws {
        let onlyHere = plan(local: [try vtodo("a", "milk")])
        #expect(onlyHere.pushes.first?.uid == "a" && onlyHere.pushes.first?.etag == nil)
        let onlyThere = plan(remote: [remote(try vtodo("b", "bread"), etag: "\"1\"")])
        #expect(onlyThere.toApply.map(\.uid) == ["b"])
        let onBoth = plan(local: [try vtodo("c", "eggs")], remote: [remote(try vtodo("c", "eggs"), etag: "\"1\"")])
        // Met on both sides for the first time: merged with no base, written
        // over the server's version it was merged with; nothing deleted.
        #expect(onBoth.deletes.isEmpty && onBoth.remove.isEmpty && onBoth.pushes.map(\.etag) == ["\"1\""])
    }

    @Test func deletingMoreThanAFifthOfWhatIsSyncedIsHeld() throws {
        let todos = try (0..<20).map { try vtodo("t\($0)", "task \($0)") }
        let plan = plan(records: todos.map { record($0) }, local: Array(todos.prefix(10)))
        #expect(plan.heldDeletions?.count == 10)
    }
}
