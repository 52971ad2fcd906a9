import FoundationEssentials
import TodoModel

/// A `DURATION` value (RFC 5545 §3.3.6): `P1W`, `P2D`, `PT1H30M`, `P1DT2H`,
/// `-PT15M`. A to-do may give its due date as `DTSTART` plus `DURATION`
/// instead of `DUE` (§3.6.2), which is all todod reads one for.
///
/// Weeks and days are nominal and hours, minutes and seconds exact, so the
/// two are kept apart: a day added to 09:00 in Berlin is 09:00 the next day
/// even across a change to or from summer time (23 or 25 hours), 24 hours
/// are 24 hours. The days are added first, then the time (§3.3.6).
struct ICalendarDuration: Hashable {
    /// Weeks and days, as days; negative for a duration that goes back.
    var days: Int
    /// Hours, minutes and seconds, as seconds; negative for one that goes back.
    var seconds: Int

    /// Each number is read up to this, so that the arithmetic cannot
    /// overflow (10¹² hours, as seconds, still fit): a number that big is
    /// past any date in any unit, even seconds (some 31,700 years), and
    /// `due` refuses it as such, rather than counting a smaller one.
    private static let largestNumber = 1_000_000_000_000
    /// More days or seconds than the years 0000 to 9999 span, from any start.
    private static let beyondAnyDate = (days: 3_700_000, seconds: 320_000_000_000)

    /// Reads `[+|-]P[nW][nD][T[nH][nM][nS]]`, at least one part, in that
    /// order (RFC 5545 has weeks alone; a week with days is read too); nil
    /// for anything else. Letters may be lowercase (ABNF strings are not
    /// case-sensitive).
    init?(_ text: String) {
        var bytes = Array(text.trimmingWhitespace().uppercased().utf8)[...]
        var sign = 1
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            sign = first == UInt8(ascii: "-") ? -1 : 1
            bytes = bytes.dropFirst()
        }
        guard bytes.popFirst() == UInt8(ascii: "P"), !bytes.isEmpty else { return nil }
        let units: [UInt8: (inTime: Bool, days: Int, seconds: Int)] = [
            UInt8(ascii: "W"): (false, 7, 0), UInt8(ascii: "D"): (false, 1, 0),
            UInt8(ascii: "H"): (true, 0, 3600), UInt8(ascii: "M"): (true, 0, 60), UInt8(ascii: "S"): (true, 0, 1),
        ]
        let order = Array("WDHMS".utf8)
        var (days, seconds) = (0, 0)
        var inTime = false
        var partsInTime = 0
        var nextUnit = 0  // where in `order` the next unit may be
        while let byte = bytes.first {
            if byte == UInt8(ascii: "T") {
                guard !inTime else { return nil }
                inTime = true
                bytes = bytes.dropFirst()
                continue
            }
            var number = 0
            var digits = 0
            while let digit = bytes.first, digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") {
                number = min(number * 10 + Int(digit - UInt8(ascii: "0")), Self.largestNumber)
                digits += 1
                bytes = bytes.dropFirst()
            }
            guard digits > 0, let unit = bytes.popFirst(), let size = units[unit], size.inTime == inTime,
                let place = order.firstIndex(of: unit), place >= nextUnit
            else { return nil }
            nextUnit = place + 1
            if inTime { partsInTime += 1 }
            days += number * size.days
            seconds += number * size.seconds
        }
        guard nextUnit > 0, !inTime || partsInTime > 0 else { return nil }
        self.days = sign * days
        self.seconds = sign * seconds
    }

    /// The due date `DTSTART` plus this duration gives, or why there is none.
    ///
    /// A day (`VALUE=DATE`) plus whole days is a day; plus a time it is that
    /// day's start in `timeZone` (todod's, as for a floating time) plus the
    /// days and time. A time has the days added to its date on the clock of
    /// `zone` (its `TZID`, UTC, or todod's zone when floating), then the time.
    func due(from day: CalendarDay, at time: (hour: Int, minute: Int, second: Int)?, in zone: TimeZone, timeZone: TimeZone)
        -> Result<DueDate, ImportProblem>
    {
        let outside = ImportProblem(location: "", message: "DTSTART plus it is outside the years 0000 to 9999")
        let years = 0...9999
        guard abs(days) <= Self.beyondAnyDate.days, abs(seconds) <= Self.beyondAnyDate.seconds else { return .failure(outside) }
        let endDay = day.adding(days: days)
        guard years.contains(endDay.year) else { return .failure(outside) }
        let due: DueDate
        switch time {
        case nil where seconds == 0:
            due = .day(endDay)
        case nil:
            due = .moment(endDay.start(in: timeZone).addingTimeInterval(Double(seconds)))
        case let time?:
            let start = InterchangeDates.local(endDay, hour: time.hour, minute: time.minute, second: time.second, in: zone)
            due = .moment(start.addingTimeInterval(Double(seconds)))
        }
        if case .moment(let moment) = due, !years.contains(CalendarDay(moment, in: zone).year) { return .failure(outside) }
        return .success(due)
    }
}
