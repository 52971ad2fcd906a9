import Foundation
import TestSupport
import Testing

@testable import TodoSyncService

/// The agreed versions are one pair's: a reset forgets them and records
/// whose the next ones will be, the collection and the list.
@Suite struct SyncStateStoreTests {
    @Test func aResetForgetsTheBaseAndRecordsThePair() throws {
        let folder = try TemporaryDirectory("todod-sync-state")
        let state = try SyncStateStore(path: folder.file("sync.sqlite"))
        #expect(state.collection == nil && state.list == nil)
        try state.commit(
            saving: [.init(uid: "a", href: "/c/a.ics", etag: "1", base: "BEGIN:VTODO", resource: "BEGIN:VCALENDAR")], forgetting: [],
            token: .some("token-1"))
        try state.setMeta(["lastAttempt": "2026-12-04T10:00:00.000Z", "roundEnded": "2026-12-04T10:00:00.000Z", "lastSync": "x"])
        try state.setProblems(["/c/b.ics": "unreadable"], clearing: [])
        try state.recordConflicts([(uid: "a", note: "both changed")], at: Date(timeIntervalSince1970: 0))

        try state.reset(collection: "https://dav.example.com/work/", list: "list-1")

        #expect(try state.records().isEmpty)
        #expect(state.token == nil)
        #expect(try state.problems().isEmpty)
        #expect(try state.conflicts().isEmpty)
        #expect(state.collection == "https://dav.example.com/work/")
        #expect(state.list == "list-1")
        let meta = try state.meta()
        // `sync now` waits on when a round was tried: that stays.
        #expect(meta["lastAttempt"] == "2026-12-04T10:00:00.000Z" && meta["roundEnded"] == "2026-12-04T10:00:00.000Z")
        #expect(meta["lastSync"] == nil)
    }

    /// The revision agreed at is kept until a reset, which also says why
    /// it forgot (`sync status`'s notice); a one-off allowance to delete
    /// outlives the reset it may be needed after.
    @Test func theRevisionAndTheNoticeAreKeptAcrossRoundsNotResets() throws {
        let folder = try TemporaryDirectory("todod-sync-state")
        let state = try SyncStateStore(path: folder.file("sync.sqlite"))
        #expect(state.revision == nil)
        try state.setMeta(["revision": "42", "allowDeletions": "true"])
        #expect(state.revision == 42)
        try state.reset(collection: "https://dav.example.com/work/", list: "list-1", notice: "went back")
        #expect(state.revision == nil)
        let meta = try state.meta()
        #expect(meta["notice"] == "went back" && meta["allowDeletions"] == "true")
    }
}
