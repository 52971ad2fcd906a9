import Foundation
import Testing
import TodoModel

/// An item as a query sees it; the real item type gains these fields with issue 13.
struct QueryTestItem: QueryableItem {
    var title = "buy milk"
    var tags: Set<String> = []
    var project: String? = nil
    var priority: Priority? = nil
    var due: DueDate? = nil
    var wait: DueDate? = nil
    var isDone = false
    var isRecurring = false
    var values: [String: FieldValue] = [:]
}

/// Which items a compiled query keeps.
@Suite struct QueryEvaluationTests {
    static let zone = TimeZone(identifier: "Europe/Berlin")!
    /// Wednesday 2026-03-11 10:00 in Berlin.
    static let now = Calendar.gregorian(zone).date(from: DateComponents(year: 2026, month: 3, day: 11, hour: 10))!
    static let today = CalendarDay(year: 2026, month: 3, day: 11)

    static func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        Calendar.gregorian(zone).date(from: DateComponents(year: 2026, month: 3, day: day, hour: hour, minute: minute))!
    }

    /// A stand-in for the natural-date parser: ISO days, `today`, and `Dth HH:MM` moments in March 2026.
    static func resolve(_ text: String) throws -> DueDate {
        if text == "today" { return .day(today) }
        if let day = CalendarDay(iso: text) { return .day(day) }
        let parts = text.split(separator: " ")
        if parts.count == 2, let day = Int(parts[0]), case let clock = parts[1].split(separator: ":"), clock.count == 2,
            let hour = Int(clock[0]), let minute = Int(clock[1])
        {
            return .moment(at(day, hour, minute))
        }
        throw UnknownDate(text: text)
    }

    struct UnknownDate: Error, Equatable { var text: String }

    /// Reads a query whose dates the stand-in resolves, so none is refused when read.
    func parse(_ query: String) throws -> Query {
        try Query.parse(query, checkingDates: { _ in })
    }

    func matches(_ query: String, _ item: QueryTestItem) throws -> Bool {
        try parse(query).compile(resolvingDates: Self.resolve, timeZone: Self.zone, now: Self.now).matches(item)
    }

    func day(_ day: Int) -> DueDate { .day(CalendarDay(year: 2026, month: 3, day: day)) }

    @Test func titleTextIgnoresCaseButNotDiacritics() throws {
        let item = QueryTestItem(title: "Buy Café au lait")
        #expect(try matches("café", item))
        #expect(try matches("CAFÉ", item))
        #expect(try matches("\"buy café\"", item))
        #expect(try !matches("cafe", item))
        #expect(try !matches("tea", item))
    }

    @Test func regexMatchesTheTitleIgnoringCase() throws {
        let item = QueryTestItem(title: "Call mum at 5")
        #expect(try matches("/^call .* \\d$/", item))
        #expect(try matches("/MUM/", item))
        #expect(try !matches("/^mum/", item))
    }

    @Test func tagsMatchIgnoringCase() throws {
        let item = QueryTestItem(tags: ["Home", "errand"])
        #expect(try matches("+home", item))
        #expect(try matches("+ERRAND", item))
        #expect(try !matches("+work", item))
        #expect(try matches("-work", item))
        #expect(try !matches("-Home", item))
    }

    @Test func projectsIncludeTheirSubProjects() throws {
        let garden = QueryTestItem(project: "Home.Garden")
        #expect(try matches("project:home", garden))
        #expect(try matches("pro:HOME.garden", garden))
        #expect(try !matches("project:home.garden.shed", garden))
        #expect(try !matches("project:hom", garden))
        #expect(try !matches("project:home", QueryTestItem(project: "homework")))
        #expect(try !matches("project:home", QueryTestItem(project: nil)))
    }

    @Test func priorityAndNoPriority() throws {
        let high = QueryTestItem(priority: .high), low = QueryTestItem(priority: .low), none = QueryTestItem()
        #expect(try matches("priority:H", high))
        #expect(try !matches("priority:H", low))
        #expect(try matches("priority:none", none))
        #expect(try !matches("priority:none", low))
        #expect(try matches("priority.above:L", high))
        #expect(try !matches("priority.above:L", low))
        #expect(try !matches("priority.above:L", none))
        #expect(try matches("priority.below:H", low))
        #expect(try matches("priority.below:H", none), "no priority ranks below L")
        #expect(try !matches("priority.below:H", high))
        #expect(try matches("priority.above:none", low))
        #expect(try !matches("priority.below:none", none))
    }

    @Test func dueOnComparesDaysInTheTimeZone() throws {
        #expect(try matches("due:today", QueryTestItem(due: day(11))))
        #expect(try matches("due:2026-03-11", QueryTestItem(due: .moment(Self.at(11, 23, 30)))))
        #expect(try !matches("due:2026-03-11", QueryTestItem(due: .moment(Self.at(12, 0, 30)))))
        #expect(try !matches("due:today", QueryTestItem(due: nil)))
        #expect(try matches("due:\"11 18:00\"", QueryTestItem(due: day(11))), "a time in the operand is ignored")
    }

    @Test func dueBeforeAndAfterADay() throws {
        #expect(try matches("due.before:2026-03-12", QueryTestItem(due: day(11))))
        #expect(try !matches("due.before:2026-03-12", QueryTestItem(due: day(12))))
        #expect(try matches("due.before:2026-03-12", QueryTestItem(due: .moment(Self.at(11, 23, 59)))))
        #expect(try !matches("due.before:2026-03-12", QueryTestItem(due: .moment(Self.at(12, 0)))))
        #expect(try matches("due.after:2026-03-11", QueryTestItem(due: day(12))))
        #expect(try !matches("due.after:2026-03-11", QueryTestItem(due: day(11))))
        #expect(try !matches("due.after:2026-03-11", QueryTestItem(due: .moment(Self.at(11, 23, 59)))))
        #expect(try matches("due.after:2026-03-11", QueryTestItem(due: .moment(Self.at(12, 0)))))
        #expect(try !matches("due.before:2026-03-12", QueryTestItem(due: nil)))
        #expect(try !matches("due.after:2026-03-11", QueryTestItem(due: nil)))
    }

    @Test func dueBeforeAndAfterAMoment() throws {
        #expect(try matches("due.before:\"11 14:00\"", QueryTestItem(due: .moment(Self.at(11, 13, 59)))))
        #expect(try !matches("due.before:\"11 14:00\"", QueryTestItem(due: .moment(Self.at(11, 14)))))
        #expect(try matches("due.before:\"11 14:00\"", QueryTestItem(due: day(11))), "a day begins at its midnight")
        #expect(try !matches("due.before:\"11 00:00\"", QueryTestItem(due: day(11))))
        #expect(try matches("due.after:\"11 14:00\"", QueryTestItem(due: .moment(Self.at(11, 14, 1)))))
        #expect(try !matches("due.after:\"11 14:00\"", QueryTestItem(due: day(11))))
        #expect(try matches("due.after:\"11 14:00\"", QueryTestItem(due: day(12))))
    }

    @Test func dueNoneAndOverdue() throws {
        #expect(try matches("due:none", QueryTestItem(due: nil)))
        #expect(try !matches("due:none", QueryTestItem(due: day(1))))
        #expect(try matches("overdue", QueryTestItem(due: day(10))))
        #expect(try !matches("overdue", QueryTestItem(due: day(11))))
        #expect(try !matches("overdue", QueryTestItem(due: day(10), isDone: true)))
        #expect(try matches("overdue", QueryTestItem(due: .moment(Self.at(11, 9, 59)))))
        #expect(try !matches("overdue", QueryTestItem(due: .moment(Self.at(11, 10, 1)))))
        #expect(try !matches("overdue", QueryTestItem(due: nil)))
    }

    @Test func statusFollowsDoneAndWait() throws {
        let pending = QueryTestItem(), done = QueryTestItem(isDone: true)
        let waiting = QueryTestItem(wait: day(12)), waitOver = QueryTestItem(wait: day(11))
        let waitingUntilLater = QueryTestItem(wait: .moment(Self.at(11, 10, 1)))
        let doneWhileWaiting = QueryTestItem(wait: day(20), isDone: true)
        #expect(try matches("status:pending", pending))
        #expect(try matches("status:pending", waitOver))
        #expect(try !matches("status:pending", waiting))
        #expect(try !matches("status:pending", done))
        #expect(try matches("status:waiting", waiting))
        #expect(try matches("status:waiting", waitingUntilLater))
        #expect(try !matches("status:waiting", waitOver))
        #expect(try !matches("status:waiting", doneWhileWaiting))
        #expect(try matches("status:completed", done))
        #expect(try matches("status:completed", doneWhileWaiting))
        #expect(try !matches("status:completed", pending))
        for item in [pending, done, waiting, waitOver] {
            #expect(try matches("status:all", item))
            #expect(try matches("", item), "the query adds no status of its own")
        }
    }

    @Test func recurring() throws {
        #expect(try matches("recurring", QueryTestItem(isRecurring: true)))
        #expect(try !matches("recurring", QueryTestItem()))
    }

    @Test func operatorsCombine() throws {
        let item = QueryTestItem(title: "water plants", tags: ["home"], project: "home.garden", priority: .medium)
        #expect(try matches("+home water", item))
        #expect(try !matches("+home and not water", item))
        #expect(try matches("+work or pri:M", item))
        #expect(try !matches("+work or pri:H", item))
        #expect(try matches("(+work or project:home) and !overdue", item))
        #expect(try !matches("not (+work or project:home)", item))
    }

    @Test func anUnresolvableDateIsThrownFromCompile() {
        #expect(throws: UnknownDate(text: "someday")) {
            try parse("a or due.before:someday").compile(resolvingDates: Self.resolve, timeZone: Self.zone, now: Self.now)
        }
    }
}
