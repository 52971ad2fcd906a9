import Foundation
import Testing
import TodoModel
import TodoViewModels
@testable import TodoStorage

/// A damaged database file is refused before anything opens it for writing,
/// and not one byte of it, or of its log, changes.
@Suite struct DatabaseIntegrityTests {
    /// The test's database, in a folder of its own that goes when the test ends.
    let database: TemporaryDatabase
    var path: String { database.path }

    init() throws {
        database = try TemporaryDatabase("damaged")
    }

    private func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    private func storeClosedCleanly() throws {
        let store = try SQLiteTodoStore(path: path)
        let item = TodoItem(
            id: TodoID(1), title: "kept", isDone: false, createdAt: Date(timeIntervalSince1970: 1_700_000_000), completedAt: nil)
        try store.write([ListWrite(changes: [ItemChange(before: nil, after: item)])])
        try store.checkpoint()
        try store.close()
        #expect(contents(path).map(\.count) ?? 0 > 4096, "the file must reach past the first page to damage it there")
    }

    @Test(arguments: [false, true])
    func aDamagedFileIsRefusedUnchanged(notADatabaseAtAll: Bool) throws {
        try storeClosedCleanly()
        if notADatabaseAtAll {
            try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        } else {
            var bytes = try #require(contents(path))
            for index in 4096..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
            try bytes.write(to: URL(fileURLWithPath: path))
        }
        let before = contents(path)
        let logBefore = contents(path + "-wal")
        #expect {
            _ = try SQLiteTodoStore(path: path)
        } throws: { error in
            guard case .damaged(let named, _) = error as? DatabaseIntegrity.Problem else { return false }
            return named == path
        }
        #expect(contents(path) == before)
        #expect(contents(path + "-wal") == logBefore)
    }

    @Test func aHealthyFileAndAMissingOnePass() throws {
        try DatabaseIntegrity.check(path: path)  // missing: a new database
        try storeClosedCleanly()
        try DatabaseIntegrity.check(path: path)
    }
}
