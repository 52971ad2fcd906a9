import FoundationEssentials

extension Query {
    /// Resolves the query's dates and regular expressions once, for matching
    /// many items at the instant `now` in `timeZone`.
    ///
    /// `resolvingDates` turns date text (`fri`, `2026-12-01`) into a due date;
    /// its errors are thrown from here unchanged (so are a declared field's
    /// `FieldValueError`s, for a query built by hand with a value its kind
    /// does not read). `now` is fixed in the result: `overdue`, `ready` and
    /// `status:waiting` mean "as of `now`", so a view that lives across
    /// midnight compiles its query again.
    public func compile(
        resolvingDates: (String) throws -> DueDate, timeZone: TimeZone, now: Date
    ) throws -> CompiledQuery {
        let context = CompiledQuery.Context(now: now, today: CalendarDay.dayNumber(of: now, in: timeZone), timeZone: timeZone)
        return CompiledQuery(root: try compiledNode(resolvingDates, context), context: context)
    }

    private func compiledNode(
        _ resolve: (String) throws -> DueDate, _ context: CompiledQuery.Context
    ) throws -> CompiledQuery.Node {
        switch self {
        case .all: return .all
        case .text(let text): return .text(text.lowercased())
        case .regex(let pattern):
            return .regex(CompiledQuery.Pattern(try Regex(pattern).ignoresCase()))
        case .tag(let name): return .tag(name.lowercased())
        case .project(let path): return .project(path)
        case .priority(let priority): return .priority(priority)
        case .priorityAbove(let priority): return .priorityAbove(priority)
        case .priorityBelow(let priority): return .priorityBelow(priority)
        case .dueOn(let text): return .dueOn(day: context.dayNumber(of: try resolve(text)))
        case .dueBefore(let text): return .dueBefore(context.bound(of: try resolve(text)))
        case .dueAfter(let text): return .dueAfter(context.bound(of: try resolve(text)))
        case .dueNone: return .dueNone
        case .overdue: return .overdue
        case .status(let status): return .status(status)
        case .recurring: return .recurring
        case .ready: return .ready
        case .blocked: return .blocked
        case .blocking: return .blocking
        case .field(let term): return try term.compiledNode(resolve, context)
        case .not(let query): return .not(try query.compiledNode(resolve, context))
        case .and(let left, let right): return .and(try left.compiledNode(resolve, context), try right.compiledNode(resolve, context))
        case .or(let left, let right): return .or(try left.compiledNode(resolve, context), try right.compiledNode(resolve, context))
        }
    }
}

extension FieldQuery {
    /// The value read by the field's kind, as `CompiledQuery` compares it:
    /// a date resolved (to its day for `name:value`), text lowercased.
    fileprivate func compiledNode(
        _ resolve: (String) throws -> DueDate, _ context: CompiledQuery.Context
    ) throws -> CompiledQuery.Node {
        func operand(_ text: String, day: Bool) throws -> CompiledQuery.FieldOperand {
            switch kind {
            case .text: return .text(NameCase.lowercased(text))
            case .date:
                let date = try resolve(text)
                return day ? .day(context.dayNumber(of: date)) : .bound(context.bound(of: date))
            case .item, .items:
                guard let id = FieldKind.itemID(text) else {
                    throw FieldValueError(text: text, expected: "an item id such as 3")
                }
                return .id(id)
            case .number, .duration:
                // Checked when read; a query built by hand may still hold anything.
                switch try kind.value(of: text, dates: nil) {
                case .number(let number): return .number(number)
                case .duration(let seconds): return .seconds(seconds)
                default: preconditionFailure("a number or a duration reads as one")
                }
            }
        }
        switch test {
        case .noValue: return .fieldNone(name)
        case .equal(let text): return .fieldEqual(name, try operand(text, day: true))
        case .below(let text): return .fieldBelow(name, try operand(text, day: false))
        case .above(let text): return .fieldAbove(name, try operand(text, day: false))
        }
    }
}

/// A query ready to test items against: dates resolved, patterns compiled.
///
/// Day comparisons use day numbers rather than calendar arithmetic, because a
/// view matches 100,000 items against it.
public struct CompiledQuery: Sendable {
    let root: Node
    let context: Context

    public func matches(_ item: some QueryableItem, facts: LinkFacts = .none) -> Bool {
        matches(root, item, facts)
    }

    /// `matches` for a `TodoItem`, compiled for it here: a view matches
    /// 100,000 of them, and the generic form, called from another module,
    /// reads each field through the protocol, a copy at a time.
    public func matches(_ item: TodoItem, facts: LinkFacts = .none) -> Bool {
        matches(root, item, facts)
    }

    /// Whether the item is waiting as of the moment the query was compiled
    /// for: not done, and its wait date still ahead.
    public func isWaiting(_ item: some QueryableItem) -> Bool {
        !item.isDone && context.isWaiting(item.wait)
    }

    /// Whether the item has expired as of the moment the query was compiled
    /// for: not done, and past its `until` (the end of that day, or that
    /// moment). Like waiting items, expired ones are hidden from views whose
    /// query names no status.
    public func hasExpired(_ item: TodoItem) -> Bool {
        !item.isDone && context.isExpired(item.values)
    }

    /// `isWaiting` for a `TodoItem` (see `matches(_:)`).
    public func isWaiting(_ item: TodoItem) -> Bool {
        !item.isDone && context.isWaiting(item.wait)
    }

    private func matches(_ node: Node, _ item: some QueryableItem, _ facts: LinkFacts) -> Bool {
        switch node {
        case .all: return true
        case .text(let text): return item.title.containsIgnoringCase(lowercasedNeedle: text)
        case .regex(let pattern):
            return (try? pattern.expression.firstMatch(in: item.title)) != nil
        case .tag(let name): return item.tags.contains { NameCase.lowercased($0) == name }
        case .project(let path):
            guard let project = item.project else { return false }
            return ProjectPath.path(project, isWithin: path)
        case .priority(let priority): return item.priority == priority
        case .priorityAbove(let priority): return Self.rank(item.priority) > Self.rank(priority)
        case .priorityBelow(let priority): return Self.rank(item.priority) < Self.rank(priority)
        case .dueOn(let day):
            guard let due = item.due else { return false }
            return context.dayNumber(of: due) == day
        case .dueBefore(let bound):
            guard let due = item.due else { return false }
            return context.isBefore(due, bound)
        case .dueAfter(let bound):
            guard let due = item.due else { return false }
            return context.isAfter(due, bound)
        case .dueNone: return item.due == nil
        case .overdue:
            guard !item.isDone, let due = item.due else { return false }
            switch due {
            case .day(let day): return context.today > day.dayNumber
            case .moment(let date): return context.now >= date
            }
        case .status(let status):
            switch status {
            case .all: return true
            case .completed: return item.isDone
            case .waiting: return !item.isDone && context.isWaiting(item.wait)
            case .pending: return !item.isDone && !context.isWaiting(item.wait) && !context.isExpired(item.values)
            case .expired: return !item.isDone && context.isExpired(item.values)
            }
        case .recurring: return item.isRecurring
        case .ready:
            guard !item.isDone, !context.isWaiting(item.wait) else { return false }
            guard case .date(let scheduled)? = item.values[Self.scheduled] else { return true }
            return context.hasBegun(scheduled)
        case .blocked: return facts.blocked
        case .blocking: return facts.blocking
        case .fieldNone(let name): return item.values[name] == nil
        case .fieldEqual(let name, let operand):
            switch (item.values[name], operand) {
            case (.text(let text)?, .text(let lowercased)): return NameCase.lowercased(text) == lowercased
            case (.number(let number)?, .number(let operand)): return number == operand
            case (.duration(let seconds)?, .seconds(let operand)): return seconds == operand
            case (.date(let date)?, .day(let day)): return context.dayNumber(of: date) == day
            case (.items(let ids)?, .id(let id)): return ids.contains(id)
            default: return false  // no value, or one of another kind (an orphan)
            }
        case .fieldBelow(let name, let operand):
            switch (item.values[name], operand) {
            case (.number(let number)?, .number(let operand)): return number < operand
            case (.duration(let seconds)?, .seconds(let operand)): return seconds < operand
            case (.date(let date)?, .bound(let bound)): return context.isBefore(date, bound)
            default: return false
            }
        case .fieldAbove(let name, let operand):
            switch (item.values[name], operand) {
            case (.number(let number)?, .number(let operand)): return number > operand
            case (.duration(let seconds)?, .seconds(let operand)): return seconds > operand
            case (.date(let date)?, .bound(let bound)): return context.isAfter(date, bound)
            default: return false
            }
        case .not(let node): return !matches(node, item, facts)
        case .and(let left, let right): return matches(left, item, facts) && matches(right, item, facts)
        case .or(let left, let right): return matches(left, item, facts) || matches(right, item, facts)
        }
    }

    /// The field `ready` reads.
    private static let scheduled = FieldDeclaration.scheduled.name

    /// No priority ranks below L.
    private static func rank(_ priority: Priority?) -> Int {
        switch priority {
        case nil: 0
        case .low: 1
        case .medium: 2
        case .high: 3
        }
    }

    indirect enum Node: Sendable {
        case all
        case text(String)
        case regex(Pattern)
        /// Lowercased.
        case tag(String)
        case project(String)
        case priority(Priority?)
        case priorityAbove(Priority?)
        case priorityBelow(Priority?)
        case dueOn(day: Int)
        case dueBefore(Bound)
        case dueAfter(Bound)
        case dueNone
        case overdue
        case status(QueryStatus)
        case recurring
        case ready
        case blocked
        case blocking
        /// By field name.
        case fieldNone(String)
        case fieldEqual(String, FieldOperand)
        case fieldBelow(String, FieldOperand)
        case fieldAbove(String, FieldOperand)
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)
    }

    /// A declared field's operand, read by the field's kind.
    enum FieldOperand: Sendable {
        /// Lowercased.
        case text(String)
        case number(Double)
        case seconds(Int)
        /// For `name:date`: the day.
        case day(Int)
        /// For `.before` and `.after`.
        case bound(Bound)
        /// For `depends:3`, `parent:3`.
        case id(TodoID)
    }

    /// A compiled regular expression (the standard library's `Regex`, not
    /// Foundation's, which would link ICU into todoctl): immutable once
    /// built, so safe to use from several threads.
    struct Pattern: @unchecked Sendable {
        let expression: Regex<AnyRegexOutput>
        init(_ expression: Regex<AnyRegexOutput>) { self.expression = expression }
    }

    /// A resolved date operand, in the forms comparisons need.
    struct Bound: Sendable {
        /// The day, or the day the moment falls on.
        var day: Int
        /// When the operand is a moment, the moment; `nil` for a whole day.
        var moment: Date?
        /// When the day begins, and when the next day begins.
        var dayStart: Date
        var nextDayStart: Date
    }

    struct Context: Sendable {
        var now: Date
        /// The day number of `now` in `timeZone`.
        var today: Int
        var timeZone: TimeZone

        func dayNumber(of due: DueDate) -> Int {
            switch due {
            case .day(let day): day.dayNumber
            case .moment(let date): CalendarDay.dayNumber(of: date, in: timeZone)
            }
        }

        func bound(of due: DueDate) -> Bound {
            let day = dayNumber(of: due)
            let start = CalendarDay(dayNumber: day).start(in: timeZone)
            var moment: Date? = nil
            if case .moment(let date) = due { moment = date }
            return Bound(day: day, moment: moment, dayStart: start, nextDayStart: start.addingDays(1, in: timeZone))
        }

        /// Whether `due` begins before the operand begins: a due day before a
        /// day operand, a due moment before the operand's day begins (or before
        /// the operand moment).
        func isBefore(_ due: DueDate, _ bound: Bound) -> Bool {
            switch (due, bound.moment) {
            case (.day(let day), nil): day.dayNumber < bound.day
            case (.moment(let date), nil): date < bound.dayStart
            case (.moment(let date), let moment?): date < moment
            // A due day begins at its midnight: before the moment unless the moment is that very midnight.
            case (.day(let day), let moment?): day.dayNumber < bound.day || (day.dayNumber == bound.day && bound.dayStart < moment)
            }
        }

        /// Whether `due` comes after the operand: on a later day than a day
        /// operand, or later than a moment operand (a due day counts from its
        /// midnight).
        func isAfter(_ due: DueDate, _ bound: Bound) -> Bool {
            switch (due, bound.moment) {
            case (.day(let day), nil): day.dayNumber > bound.day
            case (.moment(let date), nil): date >= bound.nextDayStart
            case (.moment(let date), let moment?): date > moment
            case (.day(let day), _?): day.dayNumber > bound.day
            }
        }

        /// Whether a scheduled day has begun (at its start in the time zone)
        /// or a scheduled moment has come.
        func hasBegun(_ date: DueDate) -> Bool {
            switch date {
            case .day(let day): day.dayNumber <= today
            case .moment(let moment): moment <= now
            }
        }

        /// Whether the `until` among `values` has passed: its day is over,
        /// or its moment has come.
        func isExpired(_ values: [String: FieldValue]) -> Bool {
            guard case .date(let until)? = values[FieldDeclaration.until.name] else { return false }
            return switch until {
            case .day(let day): today > day.dayNumber
            case .moment(let date): now >= date
            }
        }

        /// Whether a wait date still hides the item: its day has not begun yet,
        /// or its moment has not come.
        func isWaiting(_ wait: DueDate?) -> Bool {
            switch wait {
            case nil: false
            case .day(let day): day.dayNumber > today
            case .moment(let date): now < date
            }
        }
    }
}

/// What a query knows of an item beyond its own fields: how it stands
/// among the others (`blocked`, `blocking`). The list works these out
/// (`TodoCollection.isBlocked`) and passes them with the item.
public struct LinkFacts: Hashable, Sendable {
    public var blocked: Bool
    public var blocking: Bool

    public init(blocked: Bool, blocking: Bool) {
        self.blocked = blocked
        self.blocking = blocking
    }

    public static let none = LinkFacts(blocked: false, blocking: false)
}
