import FoundationEssentials

/// A wall-clock time (hour, minute, second) with no date and no zone: what a
/// person means by "18:00", and what a repeating item keeps from one
/// occurrence to the next.
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int
    public let second: Int

    /// `nil` unless 00:00:00 ≤ time ≤ 23:59:59 (no leap seconds, no "24:00").
    public init?(hour: Int, minute: Int = 0, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// What the wall clock in `timeZone` reads at `date` (whole seconds).
    public init(_ date: Date, in timeZone: TimeZone) {
        let local = Int((date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))).rounded(.down))
        let intoDay = ((local % 86_400) + 86_400) % 86_400
        self.hour = intoDay / 3_600
        self.minute = intoDay / 60 % 60
        self.second = intoDay % 60
    }

    public var secondsIntoDay: Int { hour * 3_600 + minute * 60 + second }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        lhs.secondsIntoDay < rhs.secondsIntoDay
    }

    /// `HH:MM`, or `HH:MM:SS` when the seconds are not zero.
    public var description: String {
        second == 0
            ? String.zeroPadded(hour, width: 2) + ":" + String.zeroPadded(minute, width: 2)
            : String.zeroPadded(hour, width: 2) + ":" + String.zeroPadded(minute, width: 2) + ":" + String.zeroPadded(second, width: 2)
    }
}

extension CalendarDay {
    /// The first instant at which the wall clock in `timeZone` reads `time`
    /// or later on this day.
    ///
    /// One rule covers the two days a year when a wall-clock time is not one
    /// instant:
    /// - **Gap** (spring forward: 02:30 does not exist in Berlin on
    ///   2026-03-29): the first instant after the gap, 03:00 CEST. That is when
    ///   the clock first shows a time at or past 02:30, so an item due "at
    ///   02:30" is due as soon as that time has come; shifting it to 03:30
    ///   would make it due half an hour after the clock passed 02:30.
    /// - **Ambiguous** (fall back: 01:30 happens twice in New York on
    ///   2026-11-01): the earlier of the two, 01:30 EDT; being reminded an
    ///   hour early beats being reminded an hour late.
    public func moment(at time: TimeOfDay, in timeZone: TimeZone) -> Date {
        let wall = dayNumber * 86_400 + time.secondsIntoDay
        func offset(_ instant: Int) -> Int {
            timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
        }
        // The zone's offsets around this wall time: no zone changes its offset
        // twice within a day, so a day either side holds both sides of a change.
        let offsets = Set([wall - 86_400, wall, wall + 86_400].map(offset))
        let instants = offsets.map { wall - $0 }.filter { wall - offset($0) == $0 }
        if let earliest = instants.min() {
            return Date(timeIntervalSince1970: Double(earliest))
        }
        // In a gap: the wall clock jumps from before `wall` to after it at one
        // instant between these bounds; find that instant by bisection.
        var low = wall - offsets.max()!
        var high = wall - offsets.min()!
        while low < high {
            let middle = low + (high - low) / 2
            if middle + offset(middle) >= wall { high = middle } else { low = middle + 1 }
        }
        return Date(timeIntervalSince1970: Double(low))
    }
}
