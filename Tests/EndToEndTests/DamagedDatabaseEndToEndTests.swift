import Foundation
import Testing

/// A damaged database is never written to: todod exits 71 with one line that
/// names the file and says what to do, and the file and its log are exactly
/// as they were.
@Suite struct DamagedDatabaseEndToEndTests {
    /// With the log files a clean stop leaves, and without them (a file
    /// copied from a backup): in neither case may todod create or change one.
    @Test(arguments: [true, false])
    func aDamagedDatabaseIsLeftUntouched(keepLogFiles: Bool) async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        for title in ["one", "two", "three"] {
            #expect(try await todoctl("add", title, socket: daemon.socket).status == 0)
        }
        #expect(try await daemon.terminate() == 0)

        let database = daemon.dataDirectory + "/todos.sqlite"
        let log = database + "-wal"
        if !keepLogFiles {
            try? FileManager.default.removeItem(atPath: log)
            try? FileManager.default.removeItem(atPath: database + "-shm")
        }
        try overwrite(database, from: 4096)
        let before = try fingerprint(database)
        let logBefore = try? fingerprint(log)

        let status = try await daemon.startExpectingRefusal()
        #expect(status == 71, "\(daemon.log.text)")
        let lines = daemon.log.text.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(daemon.log.text)")
        #expect(daemon.log.text.contains("the database \(database) is damaged"), "\(daemon.log.text)")
        #expect(daemon.log.text.contains("Restore it from a backup"), "\(daemon.log.text)")
        #expect(daemon.log.text.contains("sqlite3 \(database) .recover"), "\(daemon.log.text)")
        let after = try fingerprint(database)
        #expect(after.count == before.count, "the damaged file grew or shrank")
        #expect(after == before, "the damaged file was changed")
        #expect((try? fingerprint(log)) == logBefore, "the write-ahead log was created or changed")
    }

    /// Garbage from `offset` to the end: the size stays, the header survives.
    private func overwrite(_ path: String, from offset: UInt64) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        #expect(size > offset, "the database must be longer than \(offset) bytes to damage it")
        try handle.seek(toOffset: offset)
        var generator = SystemRandomNumberGenerator()
        try handle.write(contentsOf: Data((offset..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    }

    /// The whole content (the files are small): equal means not one byte changed.
    private func fingerprint(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
