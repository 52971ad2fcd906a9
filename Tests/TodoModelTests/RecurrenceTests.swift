import Foundation
import Testing
import TodoModel

@Suite struct RecurrenceTextTests {
    private static func every(_ count: Int, _ unit: Recurrence.Unit) -> Recurrence {
        try! Recurrence(.every(count, unit))
    }

    @Test(arguments: [
        ("daily", Recurrence.daily), ("weekdays", .weekdays), ("weekly", .weekly), ("monthly", .monthly),
        ("yearly", .yearly), ("every day", .daily), ("every week", .weekly), ("every month", .monthly),
        ("every year", .yearly), ("every 3 days", every(3, .day)), ("every 2 weeks", every(2, .week)),
        ("every 6 months", every(6, .month)), ("every 2 years", every(2, .year)), ("every 1 days", .daily),
        ("3d", every(3, .day)), ("2w", every(2, .week)), ("6m", every(6, .month)), ("1y", .yearly), ("1d", .daily),
        ("  Every   3\tDAYS ", every(3, .day)), ("WEEKLY", .weekly),
    ])
    func readsEveryForm(text: String, expected: Recurrence) throws {
        let recurrence = try Recurrence(parsing: text)
        #expect(recurrence == expected)
        #expect(!recurrence.countsFromCompletion)
        #expect(recurrence.anchorDay == nil)
    }

    @Test func readsFromCompletionAndAnAnchor() throws {
        #expect(try Recurrence(parsing: "weekly from completion") == Recurrence(.every(1, .week), countsFromCompletion: true))
        #expect(try Recurrence(parsing: "3d From Completion") == Recurrence(.every(3, .day), countsFromCompletion: true))
        #expect(try Recurrence(parsing: "weekdays from completion") == Recurrence(.weekdays, countsFromCompletion: true))
        #expect(try Recurrence(parsing: "monthly on day 31") == Recurrence(.every(1, .month), anchorDay: 31))
        #expect(try Recurrence(parsing: "every 3 months on day 30") == Recurrence(.every(3, .month), anchorDay: 30))
        #expect(try Recurrence(parsing: "yearly on day 29").anchorDay == 29)
    }

    @Test(arguments: [
        (Recurrence.daily, "daily"), (.weekdays, "weekdays"), (.weekly, "weekly"), (.monthly, "monthly"),
        (.yearly, "yearly"), (every(3, .day), "every 3 days"), (every(2, .week), "every 2 weeks"),
        (every(6, .month), "every 6 months"), (every(2, .year), "every 2 years"),
        (try! Recurrence(.every(1, .week), countsFromCompletion: true), "weekly from completion"),
        (try! Recurrence(.every(1, .month), anchorDay: 31), "monthly on day 31"),
        (try! Recurrence(.weekdays, countsFromCompletion: true), "weekdays from completion"),
    ])
    func writesTheCanonicalText(recurrence: Recurrence, text: String) {
        #expect(recurrence.text == text)
        #expect(recurrence.description == text)
    }

    /// Every value survives text and JSON, and its text is already canonical.
    @Test func everyValueRoundTrips() throws {
        var values: [Recurrence] = [.weekdays, try Recurrence(.weekdays, countsFromCompletion: true)]
        for unit in Recurrence.Unit.allCases {
            for count in [1, 2, 3, 12, Recurrence.maximumCount] {
                values.append(try Recurrence(.every(count, unit)))
                values.append(try Recurrence(.every(count, unit), countsFromCompletion: true))
                if unit == .month || unit == .year {
                    for anchor in 29...31 { values.append(try Recurrence(.every(count, unit), anchorDay: anchor)) }
                }
            }
        }
        #expect(values.count == 2 + 4 * 5 * 2 + 2 * 5 * 3)
        #expect(Set(values.map(\.text)).count == values.count)
        for value in values {
            let reread = try Recurrence(parsing: value.text)
            #expect(reread == value, "\(value.text)")
            #expect(reread.text == value.text)
            #expect(Recurrence(value.text) == value)
            let json = try JSONEncoder().encode([value])
            #expect(try JSONDecoder().decode([Recurrence].self, from: json) == [value])
        }
    }

    @Test func encodesAsItsText() throws {
        let json = try JSONEncoder().encode([try Recurrence(.every(1, .month), anchorDay: 31)])
        #expect(String(decoding: json, as: UTF8.self) == #"["monthly on day 31"]"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Recurrence].self, from: Data(#"["fortnightly"]"#.utf8)) }
    }

    @Test(arguments: [
        "", "fortnightly", "every", "every 0 days", "0d", "every 10000 days", "10000d", "every three days",
        "every -1 days", "3x", "d3", "daily from", "from completion", "every 3", "monthly on day", "monthly on day x",
        "monthly on day 15", "monthly on day 32", "weekly on day 31", "daily on day 30", "weekdays on day 29",
        "monthly on day 31 from completion", "monthly from completion on day 31", "after 3 days",
    ])
    func refusesOtherText(text: String) throws {
        let error = try #require(throws: RecurrenceError.self) { try Recurrence(parsing: text) }
        #expect(error.message.contains("expected a repetition such as daily, weekdays, weekly, monthly"))
        #expect(Recurrence(text) == nil)
    }
}

@Suite struct RecurrenceNextTests {
    private let utc = DateText.zone("UTC")

    private func next(
        _ recurrence: Recurrence, due: String, completed: String, zone: String = "UTC"
    ) -> DueDate {
        recurrence.next(after: .day(DateText.day(due)), completedAt: DateText.instant(completed), in: DateText.zone(zone))
    }

    private func day(_ iso: String) -> DueDate { .day(DateText.day(iso)) }
    private func every(_ count: Int, _ unit: Recurrence.Unit, fromCompletion: Bool = false) -> Recurrence {
        try! Recurrence(.every(count, unit), countsFromCompletion: fromCompletion)
    }

    @Test func countsFromTheDueDate() {
        let onTime = "2026-11-27T15:00:00Z"
        #expect(next(.daily, due: "2026-11-27", completed: onTime) == day("2026-11-28"))
        #expect(next(.weekly, due: "2026-11-27", completed: onTime) == day("2026-12-04"))
        #expect(next(every(3, .day), due: "2026-11-27", completed: onTime) == day("2026-11-30"))
        #expect(next(every(2, .week), due: "2026-11-27", completed: onTime) == day("2026-12-11"))
        #expect(next(.monthly, due: "2026-11-27", completed: onTime) == day("2026-12-27"))
        #expect(next(every(6, .month), due: "2026-11-27", completed: onTime) == day("2027-05-27"))
        #expect(next(.yearly, due: "2026-11-27", completed: onTime) == day("2027-11-27"))
    }

    @Test func weekdaysSkipTheWeekend() {
        #expect(next(.weekdays, due: "2026-11-27", completed: "2026-11-27T15:00:00Z") == day("2026-11-30"))
        #expect(next(.weekdays, due: "2026-11-23", completed: "2026-11-23T15:00:00Z") == day("2026-11-24"))
        #expect(next(.weekdays, due: "2026-11-28", completed: "2026-11-28T15:00:00Z") == day("2026-11-30"))
        #expect(next(.weekdays, due: "2026-11-23", completed: "2026-11-25T15:00:00Z") == day("2026-11-26"))
        #expect(next(.weekdays, due: "2026-11-23", completed: "2026-11-27T15:00:00Z") == day("2026-11-30"))
    }

    /// Done late, an item skips the occurrences it missed: the next is the
    /// first after the completion day, never on or before it.
    @Test func anItemCompletedLateSkipsWhatItMissed() {
        #expect(next(.daily, due: "2026-11-23", completed: "2026-11-25T15:00:00Z") == day("2026-11-26"))
        #expect(next(every(2, .week), due: "2026-11-02", completed: "2026-11-20T15:00:00Z") == day("2026-11-30"))
        // Done on a day that is itself an occurrence: the one after it.
        #expect(next(every(2, .week), due: "2026-11-02", completed: "2026-11-16T15:00:00Z") == day("2026-11-30"))
        #expect(next(.monthly, due: "2026-09-10", completed: "2026-11-10T08:00:00Z") == day("2026-12-10"))
        #expect(next(.monthly, due: "2026-09-10", completed: "2026-11-09T08:00:00Z") == day("2026-11-10"))
        // Years late.
        #expect(next(.daily, due: "2020-01-01", completed: "2026-11-27T15:00:00Z") == day("2026-11-28"))
        #expect(next(every(4, .day), due: "2020-01-01", completed: "2026-11-27T15:00:00Z") == day("2026-11-29"))
        #expect(next(.yearly, due: "2001-03-01", completed: "2026-11-27T15:00:00Z") == day("2027-03-01"))
    }

    @Test func anItemCompletedEarlyCountsFromItsDueDate() {
        #expect(next(.weekly, due: "2026-11-27", completed: "2026-11-25T15:00:00Z") == day("2026-12-04"))
        #expect(next(.daily, due: "2026-11-27", completed: "2026-11-20T15:00:00Z") == day("2026-11-28"))
    }

    @Test func countsFromCompletionWhenAsked() {
        #expect(next(every(3, .day, fromCompletion: true), due: "2026-11-01", completed: "2026-11-27T15:00:00Z") == day("2026-11-30"))
        #expect(next(every(1, .week, fromCompletion: true), due: "2026-11-20", completed: "2026-11-22T15:00:00Z") == day("2026-11-29"))
        #expect(next(every(1, .week, fromCompletion: true), due: "2026-12-04", completed: "2026-11-25T15:00:00Z") == day("2026-12-02"))
        #expect(next(every(1, .month, fromCompletion: true), due: "2026-01-10", completed: "2026-01-31T15:00:00Z") == day("2026-02-28"))
        let weekdays = try! Recurrence(.weekdays, countsFromCompletion: true)
        #expect(next(weekdays, due: "2026-11-20", completed: "2026-11-27T15:00:00Z") == day("2026-11-30"))
    }

    /// The completion day is the day in the zone: 12:00 UTC on New Year's Eve
    /// is already 1 January in Auckland, so a daily item was done a day late.
    @Test func theCompletionDayIsTheDayInTheZone() {
        let completed = "2026-12-31T12:00:00Z"
        #expect(next(.daily, due: "2026-12-31", completed: completed, zone: "UTC") == day("2027-01-01"))
        #expect(next(.daily, due: "2026-12-31", completed: completed, zone: "Pacific/Auckland") == day("2027-01-02"))
        #expect(next(.daily, due: "2026-12-31", completed: completed, zone: "America/New_York") == day("2027-01-01"))
    }

    /// Anchored to the 31st: 31 Jan → 28 Feb → 31 Mar → 30 Apr → 31 May.
    @Test func monthlyFromTheEndOfAMonthReturnsToItsDay() {
        func chain(_ recurrence: Recurrence, from start: String, count: Int) -> [CalendarDay] {
            var due = DueDate.day(DateText.day(start))
            var days: [CalendarDay] = []
            for _ in 0..<count {
                guard case .day(let day) = due else { return days }
                due = recurrence.next(after: due, completedAt: day.start(in: utc).addingTimeInterval(3_600), in: utc)
                if case .day(let next) = due { days.append(next) }
            }
            return days
        }
        let monthly = Recurrence.monthly.anchored(to: day("2026-01-31"), in: utc)
        #expect(monthly.anchorDay == 31)
        #expect(chain(monthly, from: "2026-01-31", count: 5).map(\.description) == [
            "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31", "2026-06-30",
        ])
        #expect(chain(monthly, from: "2028-01-31", count: 2).map(\.description) == ["2028-02-29", "2028-03-31"])
        let quarterly = every(3, .month).anchored(to: day("2026-11-30"), in: utc)
        #expect(chain(quarterly, from: "2026-11-30", count: 3).map(\.description) == ["2027-02-28", "2027-05-30", "2027-08-30"])
        // Without an anchor the clamped day sticks, which is why callers anchor.
        #expect(chain(.monthly, from: "2026-01-31", count: 2).map(\.description) == ["2026-02-28", "2026-03-28"])
        // Yearly from 29 February: 28 February in common years, back in leap years.
        let yearly = Recurrence.yearly.anchored(to: day("2028-02-29"), in: utc)
        #expect(chain(yearly, from: "2028-02-29", count: 4).map(\.description) == [
            "2029-02-28", "2030-02-28", "2031-02-28", "2032-02-29",
        ])
    }

    @Test func anAnchoredItemCompletedLateStillReturnsToItsDay() throws {
        let monthly = try Recurrence(.every(1, .month), anchorDay: 31)
        #expect(next(monthly, due: "2026-01-31", completed: "2026-04-15T12:00:00Z") == day("2026-04-30"))
        #expect(next(monthly, due: "2026-02-28", completed: "2026-05-31T12:00:00Z") == day("2026-06-30"))
        let quarterly = try Recurrence(.every(3, .month), anchorDay: 31)
        #expect(next(quarterly, due: "2020-01-31", completed: "2026-11-27T12:00:00Z") == day("2027-01-31"))
        let yearly = try Recurrence(.every(1, .year), anchorDay: 29)
        #expect(next(yearly, due: "2000-02-29", completed: "2026-11-27T12:00:00Z") == day("2027-02-28"))
        #expect(next(yearly, due: "2000-02-29", completed: "2027-11-27T12:00:00Z") == day("2028-02-29"))
    }

    /// An anchor left from an earlier due date is ignored, not followed.
    @Test func anAnchorThatDoesNotFitTheDueDateIsIgnored() throws {
        let monthly = try Recurrence(.every(1, .month), anchorDay: 31)
        #expect(next(monthly, due: "2026-03-15", completed: "2026-03-15T12:00:00Z") == day("2026-04-15"))
        let thirtieth = try Recurrence(.every(1, .month), anchorDay: 30)
        #expect(next(thirtieth, due: "2026-02-28", completed: "2026-02-28T12:00:00Z") == day("2026-03-30"))
    }

    @Test func anchoringRemembersOnlyDaysSomeMonthsLack() {
        #expect(Recurrence.monthly.anchored(to: day("2026-01-31"), in: utc).anchorDay == 31)
        #expect(Recurrence.monthly.anchored(to: day("2026-01-29"), in: utc).anchorDay == 29)
        #expect(Recurrence.monthly.anchored(to: day("2026-01-28"), in: utc).anchorDay == nil)
        #expect(Recurrence.yearly.anchored(to: day("2028-02-29"), in: utc).text == "yearly on day 29")
        #expect(Recurrence.weekly.anchored(to: day("2026-01-31"), in: utc) == .weekly)
        let fromCompletion = try! Recurrence(.every(1, .month), countsFromCompletion: true)
        #expect(fromCompletion.anchored(to: day("2026-01-31"), in: utc) == fromCompletion)
        // Re-anchoring to a new due date drops the old anchor.
        let anchored = Recurrence.monthly.anchored(to: day("2026-01-31"), in: utc)
        #expect(anchored.anchored(to: day("2026-03-15"), in: utc) == .monthly)
        // A moment's day is its day in the zone: 12:00 UTC on 30 January is 31 January in Auckland.
        let moment = DueDate.moment(DateText.instant("2026-01-30T12:00:00Z"))
        #expect(Recurrence.monthly.anchored(to: moment, in: DateText.zone("Pacific/Auckland")).anchorDay == 31)
        #expect(Recurrence.monthly.anchored(to: moment, in: utc).anchorDay == 30)
    }

    /// A moment keeps its wall-clock time: 09:00 stays 09:00 across a DST change.
    @Test func aMomentKeepsItsLocalTime() {
        func next(_ recurrence: Recurrence, due: String, completed: String, zone: String) -> DueDate {
            recurrence.next(
                after: .moment(DateText.instant(due)), completedAt: DateText.instant(completed), in: DateText.zone(zone))
        }
        func moment(_ iso: String) -> DueDate { .moment(DateText.instant(iso)) }
        #expect(
            next(.daily, due: "2026-03-28T09:00:00+01:00", completed: "2026-03-28T10:00:00+01:00", zone: "Europe/Berlin")
                == moment("2026-03-29T09:00:00+02:00"))
        #expect(
            next(.weekly, due: "2026-10-26T09:00:00-04:00", completed: "2026-10-26T09:30:00-04:00", zone: "America/New_York")
                == moment("2026-11-02T09:00:00-05:00"))
        #expect(
            next(.monthly, due: "2026-03-15T18:30:00+13:00", completed: "2026-03-15T19:00:00+13:00", zone: "Pacific/Auckland")
                == moment("2026-04-15T18:30:00+12:00"))
        #expect(
            next(.daily, due: "2026-11-27T23:30:00+05:30", completed: "2026-11-27T23:45:00+05:30", zone: "Asia/Kolkata")
                == moment("2026-11-28T23:30:00+05:30"))
        // Into the gap: due when the clock jumps. Into the repeated hour: the earlier.
        #expect(
            next(.daily, due: "2026-03-28T02:30:00+01:00", completed: "2026-03-28T08:00:00+01:00", zone: "Europe/Berlin")
                == moment("2026-03-29T03:00:00+02:00"))
        #expect(
            next(.daily, due: "2026-10-31T01:30:00-04:00", completed: "2026-10-31T08:00:00-04:00", zone: "America/New_York")
                == moment("2026-11-01T01:30:00-04:00"))
        // Late, from a moment: the time is kept, the day moves past the completion day.
        #expect(
            next(.daily, due: "2026-11-23T09:00:00Z", completed: "2026-11-25T20:00:00Z", zone: "UTC")
                == moment("2026-11-26T09:00:00Z"))
        // From completion: the completion day at the due time.
        #expect(
            next(try! Recurrence(.every(2, .day), countsFromCompletion: true),
                due: "2026-11-20T07:15:00Z", completed: "2026-11-25T20:00:00Z", zone: "UTC")
                == moment("2026-11-27T07:15:00Z"))
    }
}
