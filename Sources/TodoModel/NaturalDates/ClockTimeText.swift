/// A time as typed after a day: `18:00`, `7:15:30`, `9am`, `9:30pm`, and,
/// after an ISO date only, with a UTC offset: `18:00Z`, `18:00+01:00`.
///
/// A bare number (`9`) is not a time: "24 dec 9" would be too easy to mistype.
/// On a 12-hour clock, 12am is midnight and 12pm is noon.
struct ClockTimeText {
    let time: TimeOfDay
    /// Seconds east of UTC, when the text named an offset.
    let utcOffset: Int?

    /// `text` is lowercase and has no spaces.
    init?(_ text: String) {
        if text.hasSuffix("am") || text.hasSuffix("pm") {
            guard let (hour, minute, second) = Self.clockDigits(text.dropLast(2)), (1...12).contains(hour) else {
                return nil
            }
            let hour24 = hour % 12 + (text.hasSuffix("pm") ? 12 : 0)
            guard let time = TimeOfDay(hour: hour24, minute: minute, second: second) else { return nil }
            self.time = time
            self.utcOffset = nil
            return
        }
        var clock = Substring(text)
        var offset: Int?
        if clock.hasSuffix("z") {
            clock = clock.dropLast()
            offset = 0
        } else if let sign = clock.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            guard let seconds = Self.offsetSeconds(clock[sign...]) else { return nil }
            clock = clock[..<sign]
            offset = seconds
        }
        // Without am/pm a time needs its minutes: "18:00", not "18".
        guard clock.contains(":"), let (hour, minute, second) = Self.clockDigits(clock),
            let time = TimeOfDay(hour: hour, minute: minute, second: second)
        else { return nil }
        self.time = time
        self.utcOffset = offset
    }

    /// `H`, `H:MM` or `H:MM:SS` (hours of one or two digits).
    private static func clockDigits(_ text: Substring) -> (Int, Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), (1...2).contains(parts[0].count),
            parts.dropFirst().allSatisfy({ $0.count == 2 }),
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) })
        else { return nil }
        let numbers = parts.map { Int($0)! }
        return (numbers[0], numbers.count > 1 ? numbers[1] : 0, numbers.count > 2 ? numbers[2] : 0)
    }

    /// `+HH`, `+HHMM` or `+HH:MM` (or `-`), at most 14 hours.
    private static func offsetSeconds(_ text: Substring) -> Int? {
        let sign = text.first == "-" ? -1 : 1
        var body = Array(text.dropFirst())
        if body.count == 5, body[2] == ":" { body.remove(at: 2) }
        guard body.count == 2 || body.count == 4, body.allSatisfy(\.isASCIIDigit) else { return nil }
        let hours = Int(String(body.prefix(2)))!
        let minutes = body.count == 4 ? Int(String(body.suffix(2)))! : 0
        guard hours <= 14, minutes < 60 else { return nil }
        return sign * (hours * 3_600 + minutes * 60)
    }
}

extension Character {
    /// 0 to 9 only: `isNumber` alone also takes other scripts' digits and fractions.
    public var isASCIIDigit: Bool { isASCII && isNumber }
}
