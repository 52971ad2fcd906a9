import Foundation
import GRDB
import Testing
@testable import TodoStorage

/// Rows written with `StoredDateText` must hold exactly what GRDB writes for
/// a date, or old and new rows would compare and read back differently.
@Suite struct StoredDateTextTests {
    @Test func matchesGRDBForManyDates() {
        var generator = SystemRandomNumberGenerator()
        var dates = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.0005), Date(timeIntervalSince1970: -1),
            Date(timeIntervalSince1970: 951_782_400),  // 2000-02-29
            Date(timeIntervalSince1970: 4_102_444_799.9999),  // the last instant of 2099
            Date(timeIntervalSince1970: -2_208_988_800.25),  // before 1900
        ]
        for _ in 0..<50_000 {
            // 1901–2100, with sub-millisecond parts
            dates.append(Date(timeIntervalSince1970: Double.random(in: -2_177_452_800...4_133_894_400, using: &generator)))
        }
        for date in dates {
            #expect(StoredDateText.databaseValue(date) == date.databaseValue, "\(date.timeIntervalSince1970)")
        }
    }

    @Test func datesWrittenEitherWayReadBackAlike() throws {
        let database = try DatabaseQueue()
        let date = Date(timeIntervalSince1970: 1_795_345_200.123)
        let (ours, theirs) = try database.read { db in
            (try Date.fetchOne(db, sql: "SELECT ?", arguments: [StoredDateText.databaseValue(date)]),
             try Date.fetchOne(db, sql: "SELECT ?", arguments: [date.databaseValue]))
        }
        #expect(ours == theirs)
        #expect(ours.map { abs($0.timeIntervalSince(date)) < 0.001 } == true)
    }

    /// What is written reads back as the millisecond it holds, built the way
    /// todod's clock builds its dates (so an item read back equals the one in
    /// memory exactly), and as GRDB reads it but for float rounding.
    @Test func readsBackWhatItWritesAsGRDBDoes() throws {
        var random = SystemRandomNumberGenerator()
        let database = try DatabaseQueue()
        for _ in 0..<5_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: -2_177_452_800...4_133_894_400, using: &random))
            let value = StoredDateText.databaseValue(date)
            let text = try #require(String.fromDatabaseValue(value))
            let ours = Array(text.utf8).withUnsafeBytes(StoredDateText.date(fromText:))
            let theirs = try database.read { try Date.fetchOne($0, sql: "SELECT ?", arguments: [value]) }
            let millisecond = Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down) / 1000)
            #expect(ours == millisecond, "\(text)")
            #expect(abs(ours!.timeIntervalSince(theirs!)) < 0.000_001, "\(text)")
        }
    }

    /// Other forms are left to GRDB (nil here), never misread.
    @Test func otherFormsAreNotRead() {
        for text in [
            "2026-11-23", "2026-11-23 10:00", "2026-11-23T10:00:00.000", "2026-11-23 10:00:00.00Z", "2026-13-01 10:00:00.000",
            "2026-11-23 24:00:00.000", "2026-11-23 10:00:60", "2026-1x-23 10:00:00", "１２３４-11-23 10:00:00", "",
            "0026-11-23 10:00:00.000",  // before 1000: GRDB's formatter wrote it, GRDB reads it
        ] {
            #expect(Array(text.utf8).withUnsafeBytes(StoredDateText.date(fromText:)) == nil, "\(text)")
        }
        #expect(Array("2026-11-23 10:00:00".utf8).withUnsafeBytes(StoredDateText.date(fromText:)) == Date(timeIntervalSince1970: 1_795_428_000))
    }
}
