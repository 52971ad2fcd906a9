import Foundation
import Testing
import TodoModel
import TodoViewModels
@testable import TodoStorage
import TodoStoreInterface

/// Opening a store writes nothing unless something must change (a new file,
/// a migration): todod then starts, and serves reads, on a full disk. The
/// resume record is read, not taken; the first change retires it.
@Suite struct OpeningWithoutWritingTests {
    /// The test's database, in a folder of its own that goes when the test ends.
    let database: TemporaryDatabase
    var path: String { database.path }
    let record = ResumeRecord(epoch: "e1", revision: 7, history: [.init(revision: 7, payload: Data("{}".utf8))])

    init() throws {
        database = try TemporaryDatabase("open")
    }

    private func item(_ id: Int64, _ title: String) -> TodoItem {
        TodoItem(id: TodoID(id), title: title, isDone: false, createdAt: Date(timeIntervalSince1970: 1_700_000_000), completedAt: nil)
    }

    /// A store closed the way todod stops: record saved, checkpointed.
    private func storeClosedCleanly() throws {
        let store = try SQLiteTodoStore(path: path)
        try store.write([ListWrite(changes: [ItemChange(before: nil, after: item(1, "kept"))])])
        try store.saveResumeRecord(record)
        try store.checkpoint()
        try store.close()
    }

    private func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func openingACurrentDatabaseAndReadingWritesNothing() throws {
        try storeClosedCleanly()
        let before = try #require(contents(path))
        let store = try SQLiteTodoStore(path: path)
        #expect(try store.load().items.map(\.title) == ["kept"])
        #expect(try store.resumeRecord() == record)
        #expect(contents(path + "-wal")?.count == 0, "the write-ahead log holds frames: something was written")
        try store.close()
        #expect(contents(path) == before, "the database file changed")
    }

    @Test func theRecordSurvivesAStartWithoutChangesAndGoesWithTheFirstChange() throws {
        try storeClosedCleanly()
        do {
            let store = try SQLiteTodoStore(path: path)
            #expect(try store.resumeRecord() == record)
            try store.close()  // as if killed before any change: the record is still the truth
        }
        let store = try SQLiteTodoStore(path: path)
        #expect(try store.resumeRecord() == record)
        try store.write([ListWrite(changes: [ItemChange(before: nil, after: item(2, "new"))])])
        try store.close()
        #expect(try SQLiteTodoStore(path: path).resumeRecord() == nil)
    }

    /// A change that writes nothing (a view's options) still moves the
    /// revision on; the owner then writes an empty batch, which retires the record.
    @Test func anEmptyBatchAfterReadingTheRecordRetiresIt() throws {
        try storeClosedCleanly()
        let store = try SQLiteTodoStore(path: path)
        #expect(try store.resumeRecord() == record)
        #expect(store.hasPendingResumeRecord)
        try store.write([])
        try store.close()
        #expect(try SQLiteTodoStore(path: path).resumeRecord() == nil)
    }

    @Test func aRecordSavedAgainIsKept() throws {
        try storeClosedCleanly()
        let store = try SQLiteTodoStore(path: path)
        _ = try store.resumeRecord()
        let newer = ResumeRecord(epoch: "e1", revision: 9, history: [])
        try store.saveResumeRecord(newer)
        try store.synchronize()
        try store.close()
        #expect(try SQLiteTodoStore(path: path).resumeRecord() == newer)
    }
}
