import Foundation
import Testing
import TodoModel

/// The fields these tests declare besides the built-in `scheduled` (`sch`) and `until`.
let queryTestFields = try! FieldCatalog(userDefined: [
    .userDefined(name: "estimate", declaredAs: "numeric \"Estimate\""),
    .userDefined(name: "effort", declaredAs: "duration"),
    .userDefined(name: "size", declaredAs: "string \"Size\" S,M,L"),
    .userDefined(name: "owner", declaredAs: "string"),
])

/// Reads query text with `queryTestFields`, taking any date text as it is.
private func parse(_ text: String) throws -> Query {
    try Query.parse(text, fields: queryTestFields, checkingDates: { _ in })
}

private func term(_ name: String, _ kind: FieldKind, _ test: FieldQuery.Test) -> Query {
    .field(FieldQuery(name: name, kind: kind, test: test))
}

/// What each declared field's term reads as.
@Suite struct QueryFieldParserTests {
    @Test(arguments: [
        ("estimate:3", term("estimate", .number, .equal("3"))),
        ("Estimate.Above:2.5", term("estimate", .number, .above("2.5"))),
        ("estimate.below:10", term("estimate", .number, .below("10"))),
        ("estimate:none", term("estimate", .number, .noValue)),
        ("ESTIMATE:NONE", term("estimate", .number, .noValue)),
        ("effort:2h", term("effort", .duration, .equal("2h"))),
        ("effort.below:PT30M", term("effort", .duration, .below("PT30M"))),
        ("effort.above:1h30min", term("effort", .duration, .above("1h30min"))),
        ("size:m", term("size", .text, .equal("m"))),
        ("owner:\"Ann Lee\"", term("owner", .text, .equal("Ann Lee"))),
        ("owner:\"none\"", term("owner", .text, .equal("none"))),
        ("owner:none", term("owner", .text, .noValue)),
        ("sch:fri", term("scheduled", .date, .equal("fri"))),
        ("scheduled.before:fri", term("scheduled", .date, .below("fri"))),
        ("SCH.After:\"next week\"", term("scheduled", .date, .above("next week"))),
        ("until:none", term("until", .date, .noValue)),
        ("until.after:2026-12-01", term("until", .date, .above("2026-12-01"))),
        ("ready", Query.ready),
        ("READY", Query.ready),
        ("\"ready\"", Query.text("ready")),
    ])
    func eachTerm(text: String, expected: Query) throws {
        #expect(try parse(text) == expected)
    }

    @Test func fieldTermsCombineAsOtherTerms() throws {
        #expect(try parse("not sch:none") == .not(term("scheduled", .date, .noValue)))
        #expect(try parse("ready estimate.above:2 or +home")
            == .or(.and(.ready, term("estimate", .number, .above("2"))), .tag("home")))
    }

    /// Only declared fields are keys: a list without `estimate` reads it as a
    /// mistyped key, and the built-in fields are keys in every list.
    @Test func theCatalogDecidesWhichNamesAreKeys() throws {
        #expect(throws: QueryParseError.self) { try Query.parse("estimate:3") }
        #expect(try Query.parse("sch:none") == term("scheduled", .date, .noValue))
        #expect(try Query.parse("estimate:", fields: .builtIn) == .text("estimate:"), "not a key: title text, as note: is")
    }
}

/// Declared fields' terms refused with where and why, naming the field.
@Suite struct QueryFieldParseErrorTests {
    private func parseError(_ text: String) -> QueryParseError? {
        do {
            _ = try Query.parse(text, fields: queryTestFields)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        // (query, position, a piece of the message)
        ("estimate:abc", 9, "expected a number for estimate, such as 3 or 2.5, or none, found \"estimate:abc\""),
        ("+a estimate.above:x", 18, "expected a number for estimate, such as 3 or 2.5, found \"estimate.above:x\""),
        ("estimate.above:none", 15, "a number for estimate"),
        ("effort:2", 7, "expected a duration for effort, such as 30min, 2h, 3d, 1w or PT2H, or none"),
        ("effort.below:3 months", 13, "a duration for effort"),
        ("size:XL", 5, "expected one of S, M, L for size, or none, found \"size:XL\""),
        ("size.above:M", 5, "expected size (size is text, which has no comparisons), found \"size.above\""),
        ("a estimate.before:3", 11, "expected estimate, estimate.below or estimate.above (estimate is a number)"),
        ("effort.after:2h", 7, "effort.below or effort.above (effort is a duration)"),
        ("scheduled.below:fri", 10, "expected scheduled, scheduled.before or scheduled.after (scheduled is a date)"),
        ("sch.x.y:fri", 4, "found \"sch.x.y\""),
        ("sch:someday", 4, "expected a date for scheduled, such as today, tomorrow, fri"),
        ("until.before:\"31 feb\"", 13, "found \"31 feb\" (there is no 31 February)"),
        ("estimate:", 9, "expected a number after \"estimate:\", found the end of the query"),
        ("(sch.before:)", 12, "expected a date after \"sch.before:\", found \")\""),
        ("sch: fri", 4, "found \"fri\"; put the date right after the colon, as in sch:fri"),
        ("owner:\"\"", 6, "expected a value after \"owner:\""),
        ("effort.above:", 13, "a duration after \"effort.above:\""),
        ("foo:bar", 0, "expected one of the keys project, pro, priority"),
        ("foo:bar", 0, "status, or the fields scheduled, sch, until, depends, dep, parent, estimate, effort, size, owner, found \"foo\""),
    ])
    func reportsWhereAndWhat(text: String, position: Int, message: String) throws {
        let error = try #require(parseError(text))
        #expect(error.position == position, "\(error)")
        #expect(error.description.contains(message), "\(error)")
        #expect((0...text.count).contains(error.position))
    }

    @Test func positionsCountCharacters() throws {
        let error = try #require(parseError("café estimate:x"))
        #expect(error.position == 14, "\(error)")
    }
}

/// The canonical text of the new terms, and that it reads back as the same query.
@Suite struct QueryFieldCanonicalTextTests {
    @Test(arguments: [
        ("SCH:Fri Estimate.ABOVE:2 size:m", "scheduled:Fri and estimate.above:2 and size:m"),
        ("sch.before:\"next week\" or sch.after:mon", "scheduled.before:\"next week\" or scheduled.after:mon"),
        ("owner:\"none\" owner:none", "owner:\"none\" and owner:none"),
        ("owner:\"Ann (lead)\"", "owner:\"Ann (lead)\""),
        ("owner:\"/x\"", "owner:\"/x\""),
        ("not until:none or ready", "not until:none or ready"),
        ("!(ready)", "not ready"),
        ("\"ready\" READY", "\"ready\" and ready"),
        ("effort.below:1h30min effort:PT2H", "effort.below:1h30min and effort:PT2H"),
        ("estimate.below:-1.5", "estimate.below:-1.5"),
    ])
    func canonicalText(text: String, canonical: String) throws {
        let query = try parse(text)
        #expect(query.description == canonical)
        #expect(try parse(query.description) == query)
    }

    @Test func builtTermsReadBack() throws {
        let queries: [Query] = [
            term("owner", .text, .equal("say \"hi\"")),
            term("owner", .text, .equal("NONE")),
            term("scheduled", .date, .below("fri 14:00")),
            .and(.ready, .not(term("until", .date, .noValue))),
            .not(.or(term("estimate", .number, .above("1000")), .text("ready"))),
        ]
        for query in queries {
            #expect(try parse(query.description) == query, "\(query.description)")
        }
    }
}

/// Which items the new terms keep, at a fixed moment: Wednesday 2026-03-11
/// 10:00 in Berlin (`QueryEvaluationTests`' clock and dates).
@Suite struct QueryFieldEvaluationTests {
    typealias Clock = QueryEvaluationTests

    func matches(_ query: String, _ item: QueryTestItem) throws -> Bool {
        try parse(query).compile(resolvingDates: Clock.resolve, timeZone: Clock.zone, now: Clock.now).matches(item)
    }

    func item(_ values: [String: FieldValue], isDone: Bool = false, wait: DueDate? = nil) -> QueryTestItem {
        QueryTestItem(wait: wait, isDone: isDone, values: values)
    }

    func day(_ day: Int) -> FieldValue { .date(.day(CalendarDay(year: 2026, month: 3, day: day))) }
    func moment(_ day: Int, _ hour: Int, _ minute: Int = 0) -> FieldValue { .date(.moment(Clock.at(day, hour, minute))) }

    @Test func numbers() throws {
        let three = item(["estimate": .number(3)]), none = item([:])
        #expect(try matches("estimate:3", three))
        #expect(try matches("estimate:3.0", three))
        #expect(try !matches("estimate:2", three))
        #expect(try matches("estimate.above:2.5", three))
        #expect(try !matches("estimate.above:3", three))
        #expect(try matches("estimate.below:3.5", three))
        #expect(try !matches("estimate.below:3", three))
        for query in ["estimate:3", "estimate.above:-1", "estimate.below:100"] {
            #expect(try !matches(query, none), "no value matches no comparison: \(query)")
        }
        #expect(try matches("estimate:none", none))
        #expect(try !matches("estimate:none", three))
        #expect(try matches("not estimate:none", three))
    }

    @Test func durations() throws {
        let ninety = item(["effort": .duration(5_400)])
        #expect(try matches("effort:1h30min", ninety))
        #expect(try matches("effort:PT90M", ninety))
        #expect(try matches("effort.above:1h", ninety))
        #expect(try !matches("effort.below:90min", ninety))
        #expect(try matches("effort.below:2h", ninety))
    }

    @Test func textIgnoresCase() throws {
        let ann = item(["owner": .text("Ann Lee")])
        #expect(try matches("owner:\"ann lee\"", ann))
        #expect(try matches("owner:\"ANN LEE\"", ann))
        #expect(try !matches("owner:ann", ann), "the whole value, not a part")
        #expect(try matches("size:m", item(["size": .text("M")])))
    }

    /// A value of another kind than the field's (an orphan from when it was
    /// declared otherwise) has a value, but equals and compares with nothing.
    @Test func aValueOfAnotherKindMatchesOnlyNotNone() throws {
        let orphan = item(["estimate": .text("3")])
        #expect(try !matches("estimate:3", orphan))
        #expect(try !matches("estimate.below:10", orphan))
        #expect(try !matches("estimate:none", orphan))
    }

    @Test func datesAsDueDatesAre() throws {
        #expect(try matches("sch:today", item(["scheduled": day(11)])))
        #expect(try matches("sch:2026-03-11", item(["scheduled": moment(11, 23, 30)])))
        #expect(try !matches("sch:2026-03-11", item(["scheduled": moment(12, 0, 30)])))
        #expect(try matches("scheduled.before:2026-03-12", item(["scheduled": moment(11, 23, 59)])))
        #expect(try !matches("scheduled.before:2026-03-12", item(["scheduled": day(12)])))
        #expect(try matches("scheduled.before:\"11 14:00\"", item(["scheduled": day(11)])), "a day begins at its midnight")
        #expect(try matches("until.after:2026-03-11", item(["until": day(12)])))
        #expect(try !matches("until.after:\"11 14:00\"", item(["until": day(11)])))
        #expect(try matches("until.after:\"11 14:00\"", item(["until": moment(11, 14, 1)])))
        #expect(try !matches("until.after:2026-03-11", item([:])))
        #expect(try matches("until:none", item(["scheduled": day(11)])))
    }

    @Test func readyIsNotDoneNotWaitingAndScheduledNoLaterThanNow() throws {
        #expect(try matches("ready", item([:])))
        #expect(try matches("ready", item(["scheduled": day(11)])), "today began at midnight")
        #expect(try matches("ready", item(["scheduled": day(3)])))
        #expect(try !matches("ready", item(["scheduled": day(12)])))
        #expect(try matches("ready", item(["scheduled": moment(11, 9, 59)])))
        #expect(try matches("ready", item(["scheduled": moment(11, 10)])), "a moment has begun once it comes")
        #expect(try !matches("ready", item(["scheduled": moment(11, 10, 1)])))
        #expect(try !matches("ready", item([:], isDone: true)))
        #expect(try !matches("ready", item(["scheduled": day(1)], isDone: true)))
        #expect(try !matches("ready", item([:], wait: .day(CalendarDay(year: 2026, month: 3, day: 12)))))
        #expect(try matches("ready", item([:], wait: .day(CalendarDay(year: 2026, month: 3, day: 11)))), "its wait is over")
        #expect(try matches("ready", item(["scheduled": .text("soon")])), "a scheduled value that is no date holds nothing back")
        #expect(try matches("not ready", item(["scheduled": day(12)])))
    }

    /// Dates stay text until compiled: the same query follows the clock.
    @Test func readyFollowsTheClockItIsCompiledFor() throws {
        let query = try parse("ready")
        let later = item(["scheduled": moment(11, 15)])
        #expect(try !query.compile(resolvingDates: Clock.resolve, timeZone: Clock.zone, now: Clock.now).matches(later))
        #expect(try query.compile(resolvingDates: Clock.resolve, timeZone: Clock.zone, now: Clock.at(11, 15)).matches(later))
        // The same moment is another day in Tokyo, where 2026-03-12 has begun.
        let tomorrow = item(["scheduled": day(12)])
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        #expect(try query.compile(resolvingDates: Clock.resolve, timeZone: tokyo, now: Clock.at(11, 17)).matches(tomorrow))
        #expect(try !query.compile(resolvingDates: Clock.resolve, timeZone: tokyo, now: Clock.at(11, 15)).matches(tomorrow))
    }

    @Test func aValueItsKindCannotReadIsThrownFromCompile() {
        let query = term("estimate", .number, .above("lots"))
        #expect(throws: FieldValueError.self) {
            try query.compile(resolvingDates: Clock.resolve, timeZone: Clock.zone, now: Clock.now)
        }
        #expect(throws: QueryEvaluationTests.UnknownDate(text: "someday")) {
            try parse("sch.before:someday").compile(resolvingDates: Clock.resolve, timeZone: Clock.zone, now: Clock.now)
        }
    }
}
