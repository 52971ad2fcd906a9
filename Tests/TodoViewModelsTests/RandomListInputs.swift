import Foundation
import TestSupport
import TodoModel
import TodoViewModels
import TodoViewState

/// Random shorthand, queries, sorts and view definitions for the
/// model-based test, drawn from small vocabularies so that what is typed
/// into items and what views ask for meet often: the same few tags (in two
/// spellings), projects, priorities and dates, and the declared fields'
/// values (`scheduled`, and the numeric `estimate` and text `owner` of
/// `fields`).
struct RandomListInputs {
    /// The fields the random lists declare: the built-in ones, a number and a text.
    static let fields = try! FieldCatalog(userDefined: [
        FieldDeclaration(name: "estimate", label: "Estimate", kind: .number),
        FieldDeclaration(name: "owner", label: "Owner", kind: .text),
    ])

    private var random: SeededRandom

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    mutating func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &random)! }
    mutating func pick<T>(anyOf choices: [T]) -> T? { choices.randomElement(using: &random) }
    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func shuffled<T>(_ elements: [T]) -> [T] { elements.shuffled(using: &random) }

    static let titleWords = ["milk", "Milk", "call", "report", "item 2", "item 10", "éclair"]
    static let tags = ["home", "Home", "work", "errands"]
    static let projects = ["home", "Home", "home.garden", "work", "work.q4"]
    /// Date text as `.setDueText` and `.addText(_:due:)` take it.
    static let dates = [
        "today", "tomorrow", "yesterday", "fri", "mon", "today 09:30", "today 13:00", "today 16:45", "today 18:30",
        "tomorrow 09:00", "2026-11-20", "eom",
    ]
    static let waits = ["mon", "tomorrow", "today 11:00", "today 15:00", "today 20:00", "fri", "yesterday"]
    static let schedules = ["today", "tomorrow", "yesterday", "mon", "today 11:00", "today 15:00", "today 20:00", "tomorrow 09:00"]
    static let estimates = ["1", "2", "2.5", "3", "10", "-1"]
    static let owners = ["ann", "Ann", "bob", "Émile"]
    static let recurrences = ["daily", "weekly", "monthly", "weekdays", "every 2 days from completion", "monthly from completion"]

    /// `"today 13:00"` in quotes, `fri` as it is.
    private static func value(_ text: String) -> String {
        text.contains(" ") ? "\"\(text)\"" : text
    }

    /// Add text: a title word or two among tags and fields, in any order.
    mutating func addShorthand() -> String {
        var words = [pick(Self.titleWords)]
        if chance(0.3) { words.append(pick(Self.titleWords)) }
        for _ in 0..<int(0...2) { words.append("+" + pick(Self.tags)) }
        if chance(0.5) { words.append("project:" + pick(Self.projects)) }
        if chance(0.5) { words.append("pri:" + pick(["H", "M", "L", "h"])) }
        if chance(0.6) { words.append("due:" + Self.value(pick(Self.dates))) }
        if chance(0.2) { words.append("wait:" + Self.value(pick(Self.waits))) }
        if chance(0.25) { words.append("recur:" + Self.value(pick(Self.recurrences))) }
        if chance(0.3) { words.append("sch:" + Self.value(pick(Self.schedules))) }
        if chance(0.3) { words.append("estimate:" + pick(Self.estimates)) }
        if chance(0.25) { words.append("owner:" + pick(Self.owners)) }
        return shuffled(words).joined(separator: " ")
    }

    /// Modify text: one to three changes, each possibly a clearing one,
    /// and sometimes title words (a retitle).
    mutating func modifyShorthand() -> String {
        var words: [String] = []
        for _ in 0..<int(1...3) {
            switch int(0...10) {
            case 0: words.append("+" + pick(Self.tags))
            case 1: words.append("-" + pick(Self.tags))
            case 2: words.append("project:" + (chance(0.3) ? "" : pick(Self.projects)))
            case 3: words.append("pri:" + (chance(0.3) ? pick(["", "none"]) : pick(["H", "M", "L"])))
            case 4: words.append("due:" + (chance(0.2) ? "" : Self.value(pick(Self.dates))))
            case 5: words.append("wait:" + (chance(0.3) ? "" : Self.value(pick(Self.waits))))
            case 6: words.append("recur:" + (chance(0.3) ? "" : Self.value(pick(Self.recurrences))))
            case 7: words.append("sch:" + (chance(0.3) ? "" : Self.value(pick(Self.schedules))))
            case 8: words.append("estimate:" + (chance(0.3) ? "" : pick(Self.estimates)))
            case 9: words.append("owner:" + (chance(0.3) ? "" : pick(Self.owners)))
            default: words.append(pick(Self.titleWords))
            }
        }
        return words.joined(separator: " ")
    }

    /// A query from a small grammar: terms, `not`, `and`, `or`, nested
    /// at most twice.
    mutating func query(depth: Int = 2) -> String {
        let terms = [
            "+home", "+work", "+errands", "-home", "project:home", "project:work", "priority:H", "priority:none",
            "priority.above:L", "priority.below:M", "due.before:fri", "due.after:tomorrow", "due:today", "due:none",
            "overdue", "status:waiting", "status:pending", "status:completed", "status:expired", "recurring", "milk", "call", "\"item 1\"",
            "ready", "not ready", "sch:none", "sch.before:tomorrow", "scheduled.after:today", "sch:today",
            "estimate.above:2", "estimate.below:3", "estimate:none", "owner:ann",
        ]
        switch depth == 0 ? 0 : int(0...4) {
        case 0, 1: return pick(terms)
        case 2: return "not " + pick(terms)
        case 3: return "(\(query(depth: depth - 1))) and (\(query(depth: depth - 1)))"
        default: return "(\(query(depth: depth - 1))) or (\(query(depth: depth - 1)))"
        }
    }

    /// One to three different keys, each either way.
    mutating func sort() throws -> ListSort {
        let fields = shuffled(ListSort.Field.builtIn + [.declared("scheduled"), .declared("estimate"), .declared("owner")])
            .prefix(int(1...3))
        return try ListSort(fields.map { ListSort.Key($0, reversed: chance(0.4)) })
    }

    mutating func definition() throws -> ViewDefinition {
        ViewDefinition(
            filter: pick(ListFilter.allCases), query: chance(0.15) ? .all : try Query.parse(query(), fields: Self.fields), sort: try sort(),
            grouping: chance(0.3) ? .project : nil)
    }
}
