import Foundation
import Testing
import TodoModel
import TodoViewModels

@Suite struct QuietHoursTests {
    @Test func readsTwoTimesAndRefusesAnythingElse() {
        #expect(QuietHours(text: "22:00-07:00")?.description == "22:00-07:00")
        #expect(QuietHours(text: "7:5-8:00")?.description == "07:05-08:00")
        for bad in ["22-07", "22:00", "25:00-07:00", "22:00-07:60", "22:00 07:00", "", "-"] {
            #expect(QuietHours(text: bad) == nil, "\(bad)")
        }
    }

    @Test func aStretchPastMidnightContainsBothEnds() {
        let quiet = QuietHours(text: "22:00-07:00")!
        #expect(quiet.contains(wallClock(2026, 11, 22, 23), in: .berlin))
        #expect(quiet.contains(wallClock(2026, 11, 22, 6, 59), in: .berlin))
        #expect(quiet.contains(wallClock(2026, 11, 22, 22), in: .berlin))
        #expect(!quiet.contains(wallClock(2026, 11, 22, 7), in: .berlin))
        #expect(!quiet.contains(wallClock(2026, 11, 22, 12), in: .berlin))
        #expect(!QuietHours(text: "08:00-08:00")!.contains(wallClock(2026, 11, 22, 8), in: .berlin))
    }

    @Test func theNextBoundaryIsTheNextStartOrEnd() {
        let quiet = QuietHours(text: "22:00-07:00")!
        #expect(quiet.nextBoundary(after: wallClock(2026, 11, 22, 12), in: .berlin) == wallClock(2026, 11, 22, 22))
        #expect(quiet.nextBoundary(after: wallClock(2026, 11, 22, 22), in: .berlin) == wallClock(2026, 11, 23, 7))
        #expect(quiet.nextBoundary(after: wallClock(2026, 11, 23, 3), in: .berlin) == wallClock(2026, 11, 23, 7))
        #expect(QuietHours(text: "08:00-08:00")!.nextBoundary(after: wallClock(2026, 11, 22, 3), in: .berlin) == nil)
    }
}
