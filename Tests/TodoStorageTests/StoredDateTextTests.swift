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
}
