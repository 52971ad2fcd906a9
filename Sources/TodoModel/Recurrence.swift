import FoundationEssentials

/// How an item repeats: when it is done, it comes back due again one period
/// later.
///
/// The period counts from the due date (a rent payment is due on the 1st
/// however late last month's was paid) or, with `countsFromCompletion`, from
/// the day the item was done (watering plants: a week after they were last
/// watered). Text form and parsing are in `RecurrenceText.swift`.
///
/// **Month ends.** Monthly and yearly repetitions clamp to the last day of a
/// shorter month and then return to the day they started on: monthly from
/// 31 January is due 28 (29) February, 31 March, 30 April; yearly from
/// 29 February is due 28 February in common years and 29 February again in
/// the next leap year. Returning needs the original day, which a due date of
/// 28 February no longer shows, so the recurrence carries it as `anchorDay`,
/// set once by `anchored(to:in:)` when the recurrence is attached to an item.
/// Carrying it in the value (rather than having callers pass it to `next`)
/// keeps the item's stored state at two fields, due date and recurrence, and
/// completing an item rewrites only its due date: the recurrence never
/// changes from one occurrence to the next. Only days 29 to 31 can be clamped,
/// so only they are kept as anchors.
public struct Recurrence: Hashable, Sendable {
    public enum Unit: String, Hashable, Sendable, CaseIterable {
        case day, week, month, year
    }

    public enum Period: Hashable, Sendable {
        /// Every `count` (≥ 1) units.
        case every(Int, Unit)
        /// Monday to Friday: the next weekday after the last occurrence.
        case weekdays
    }

    /// The largest `count` accepted in `.every`, so that every next
    /// occurrence stays a date people mean.
    public static let maximumCount = 9_999

    public let period: Period
    /// Counts the next occurrence from the completion day instead of the due date.
    public let countsFromCompletion: Bool
    /// The day of month (29 … 31) a monthly or yearly repetition returns to
    /// after a shorter month; see the type's documentation.
    public let anchorDay: Int?

    public init(_ period: Period, countsFromCompletion: Bool = false, anchorDay: Int? = nil) throws(RecurrenceError) {
        if case .every(let count, _) = period, !(1...Self.maximumCount).contains(count) {
            throw RecurrenceError(message: "the count must be between 1 and \(Self.maximumCount); \(RecurrenceError.acceptedForms)")
        }
        if let anchorDay {
            guard (29...31).contains(anchorDay) else {
                throw RecurrenceError(
                    message: "on day … is only for days 29 to 31, which some months lack; \(RecurrenceError.acceptedForms)")
            }
            guard Self.isByMonths(period), !countsFromCompletion else {
                throw RecurrenceError(
                    message: "on day … applies to monthly and yearly repetitions counted from the due date; "
                        + RecurrenceError.acceptedForms)
            }
        }
        self.period = period
        self.countsFromCompletion = countsFromCompletion
        self.anchorDay = anchorDay
    }

    private init(unchecked period: Period) {
        self.period = period
        self.countsFromCompletion = false
        self.anchorDay = nil
    }

    public static let daily = Recurrence(unchecked: .every(1, .day))
    public static let weekdays = Recurrence(unchecked: .weekdays)
    public static let weekly = Recurrence(unchecked: .every(1, .week))
    public static let monthly = Recurrence(unchecked: .every(1, .month))
    public static let yearly = Recurrence(unchecked: .every(1, .year))

    /// This recurrence as it should be stored with an item due on `due`:
    /// remembering the due day of month when it is 29 to 31 and the
    /// repetition is monthly or yearly from the due date; otherwise unchanged
    /// but without an anchor. Call it whenever the item's due date is set by
    /// hand, since the anchor belongs to that date.
    public func anchored(to due: DueDate, in timeZone: TimeZone) -> Recurrence {
        let day = Self.dayAndTime(of: due, in: timeZone).day.day
        let anchor = Self.isByMonths(period) && !countsFromCompletion && day >= 29 ? day : nil
        return (try? Recurrence(period, countsFromCompletion: countsFromCompletion, anchorDay: anchor)) ?? self
    }

    /// The due date a repeating item without one is given, since it counts
    /// from it: the day its wait ends (it appears that day, due, not
    /// overdue), or `today` when it has no wait or the wait is past.
    public static func startingDue(wait: DueDate?, today: CalendarDay, in timeZone: TimeZone) -> DueDate {
        switch wait {
        case .day(let day)?: .day(max(day, today))
        case .moment(let moment)?: .day(max(CalendarDay(moment, in: timeZone), today))
        case nil: .day(today)
        }
    }

    /// As `anchored(to:in:)`, but keeping the anchor this recurrence has when
    /// `due` is that day clamped to its month: an import that says "the last
    /// day of the month" of a to-do due 28 February means the 31st, which the
    /// due date alone no longer shows.
    public func anchored(keepingAnchorThatFits due: DueDate, in timeZone: TimeZone) -> Recurrence {
        if anchorDay != nil, fittingAnchor(for: Self.dayAndTime(of: due, in: timeZone).day) != nil { return self }
        return anchored(to: due, in: timeZone)
    }

    /// The next occurrence of an item due `due` and completed at `completedAt`.
    ///
    /// A `.day` gives a `.day`; a `.moment` gives a `.moment` at the same
    /// wall-clock time in `timeZone` (09:00 stays 09:00 across a DST change;
    /// a time that does not exist or exists twice that day is resolved as
    /// `CalendarDay.moment(at:in:)` says). The time kept is the one the due
    /// moment shows, so an item repeating at 02:30 that lands in a
    /// spring-forward gap continues at 03:00; keeping 02:30 would need the
    /// time stored beside the due date, which one night a year does not justify.
    ///
    /// The result is always after the completion day, so an item never comes
    /// back due on the day it was done, nor already overdue. Counting from the
    /// due date, an item completed late skips the occurrences it missed:
    /// daily, due Monday, done Wednesday → due Thursday (not Tuesday). An item
    /// completed early counts from its due date as usual: weekly, due Friday,
    /// done Wednesday → due the Friday after.
    ///
    /// An anchor that does not fit `due` (the due date was changed without
    /// re-anchoring) is ignored, and the due day of month is used.
    public func next(after due: DueDate, completedAt: Date, in timeZone: TimeZone) -> DueDate {
        let completionDay = CalendarDay(completedAt, in: timeZone)
        let (dueDay, time) = Self.dayAndTime(of: due, in: timeZone)
        let nextDay =
            countsFromCompletion
            ? firstOccurrence(from: completionDay, anchorDay: nil, after: completionDay)
            : firstOccurrence(from: dueDay, anchorDay: fittingAnchor(for: dueDay), after: completionDay)
        guard let time else { return .day(nextDay) }
        return .moment(nextDay.moment(at: time, in: timeZone))
    }

    /// The earliest `base` + k periods (k ≥ 1) that is after `floor`.
    private func firstOccurrence(from base: CalendarDay, anchorDay: Int?, after floor: CalendarDay) -> CalendarDay {
        switch period {
        case .weekdays:
            var day = max(base, floor).adding(days: 1)
            while day.weekday > 5 { day = day.adding(days: 1) }
            return day
        case .every(let count, let unit):
            func occurrence(_ k: Int) -> CalendarDay {
                switch unit {
                case .day: base.adding(days: k * count)
                case .week: base.adding(days: 7 * k * count)
                case .month: base.adding(months: k * count, anchorDay: anchorDay)
                case .year: base.adding(months: 12 * k * count, anchorDay: anchorDay)
                }
            }
            // Start near the answer, so an item done years late needs no long walk.
            let daysPerPeriod = switch unit {
            case .day: count
            case .week: 7 * count
            case .month: 31 * count
            case .year: 366 * count
            }
            var k = max(1, base.days(until: floor) / daysPerPeriod)
            while occurrence(k) <= floor { k += 1 }
            return occurrence(k)
        }
    }

    /// `anchorDay`, if `dueDay` is that day clamped to its month; else `nil`.
    private func fittingAnchor(for dueDay: CalendarDay) -> Int? {
        guard let anchorDay, dueDay.day == min(anchorDay, dueDay.lastDayOfMonth.day) else { return nil }
        return anchorDay
    }

    private static func isByMonths(_ period: Period) -> Bool {
        switch period {
        case .every(_, .month), .every(_, .year): true
        default: false
        }
    }

    private static func dayAndTime(of due: DueDate, in timeZone: TimeZone) -> (day: CalendarDay, time: TimeOfDay?) {
        switch due {
        case .day(let day): (day, nil)
        case .moment(let date): (CalendarDay(date, in: timeZone), TimeOfDay(date, in: timeZone))
        }
    }
}
