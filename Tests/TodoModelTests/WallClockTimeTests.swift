import Foundation
import Testing
import TodoModel

/// `CalendarDay.moment(at:in:)`: the first instant at which the wall clock
/// reads the time or later.
@Suite struct WallClockTimeTests {
    private func moment(_ day: String, _ hour: Int, _ minute: Int, in zone: String) -> Date {
        DateText.day(day).moment(at: TimeOfDay(hour: hour, minute: minute)!, in: DateText.zone(zone))
    }

    @Test func aTimeInTheSpringForwardGapIsTheFirstInstantAfterIt() {
        #expect(moment("2026-03-29", 2, 30, in: "Europe/Berlin") == DateText.instant("2026-03-29T03:00:00+02:00"))
        #expect(moment("2026-03-29", 2, 0, in: "Europe/Berlin") == DateText.instant("2026-03-29T03:00:00+02:00"))
        #expect(moment("2026-03-08", 2, 30, in: "America/New_York") == DateText.instant("2026-03-08T03:00:00-04:00"))
        #expect(moment("2026-09-27", 2, 30, in: "Pacific/Auckland") == DateText.instant("2026-09-27T03:00:00+13:00"))
    }

    @Test func timesNextToTheGapAreUnchanged() {
        #expect(moment("2026-03-29", 1, 59, in: "Europe/Berlin") == DateText.instant("2026-03-29T01:59:00+01:00"))
        #expect(moment("2026-03-29", 3, 0, in: "Europe/Berlin") == DateText.instant("2026-03-29T03:00:00+02:00"))
        #expect(moment("2026-03-29", 3, 30, in: "Europe/Berlin") == DateText.instant("2026-03-29T03:30:00+02:00"))
    }

    @Test func aTimeThatHappensTwiceIsTheEarlierOne() {
        #expect(moment("2026-11-01", 1, 30, in: "America/New_York") == DateText.instant("2026-11-01T01:30:00-04:00"))
        #expect(moment("2026-10-25", 2, 30, in: "Europe/Berlin") == DateText.instant("2026-10-25T02:30:00+02:00"))
        #expect(moment("2026-04-05", 2, 30, in: "Pacific/Auckland") == DateText.instant("2026-04-05T02:30:00+13:00"))
        // Just after the repeated hour, a time exists once again.
        #expect(moment("2026-11-01", 2, 0, in: "America/New_York") == DateText.instant("2026-11-01T02:00:00-05:00"))
    }

    /// The rule by its definition, every day of 2026 in zones with and without
    /// DST changes: the wall clock reads the time or later at the result, and
    /// earlier at every instant shortly before it.
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Pacific/Auckland", "Asia/Kolkata", "UTC"])
    func theResultIsTheFirstInstantTheClockReachesTheTime(zone: String) {
        let timeZone = DateText.zone(zone)
        func wall(_ date: Date) -> Int {
            Int(date.timeIntervalSince1970) + timeZone.secondsFromGMT(for: date)
        }
        var failures: [String] = []
        for dayNumber in DateText.day("2026-01-01").dayNumber...DateText.day("2026-12-31").dayNumber {
            let day = CalendarDay(dayNumber: dayNumber)
            for (hour, minute) in [(0, 30), (1, 30), (2, 0), (2, 30), (12, 0)] {
                let target = dayNumber * 86_400 + hour * 3_600 + minute * 60
                let result = day.moment(at: TimeOfDay(hour: hour, minute: minute)!, in: timeZone)
                let earlier = stride(from: 1, through: 3 * 3_600, by: 300).map { result.addingTimeInterval(-Double($0)) }
                if wall(result) < target || wall(result.addingTimeInterval(-1)) >= target
                    || earlier.contains(where: { wall($0) >= target })
                {
                    failures.append("\(day) \(hour):\(minute)")
                }
            }
        }
        #expect(failures.isEmpty)
    }

    @Test func theTimeOfAMomentIsReadInTheZone() {
        let date = DateText.instant("2026-11-27T12:00:30Z")
        #expect(TimeOfDay(date, in: DateText.zone("Asia/Kolkata")) == TimeOfDay(hour: 17, minute: 30, second: 30))
        #expect(TimeOfDay(date, in: DateText.zone("Pacific/Auckland")) == TimeOfDay(hour: 1, minute: 0, second: 30))
        #expect(TimeOfDay(hour: 24) == nil)
        #expect(TimeOfDay(hour: 9, minute: 5)!.description == "09:05")
        #expect(TimeOfDay(hour: 9, minute: 5, second: 7)!.description == "09:05:07")
    }
}
