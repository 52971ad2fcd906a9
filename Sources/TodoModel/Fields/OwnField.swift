/// The item's own fields, those `TodoItem` holds as typed properties,
/// declared once as `FieldDeclaration` declares the others: the words
/// shorthand, queries and sorts spell them with, and what each interchange
/// format calls them.
///
/// Their values keep their types and the code of their own that goes with
/// them (a priority's order, a due date's overdue, a repetition's next
/// date), so what comes from here is their words: shorthand's keys
/// (`Shorthand`), the query keys and their comparisons (`QueryKey`), the
/// sort keys (`ListSort`), the names a user-defined field may not take
/// (`FieldCatalog.reservedNames`), and which attributes, properties and
/// keys each format reads itself rather than keeping them as foreign.
public struct OwnField: Hashable, Sendable {
    public let field: ItemField
    /// Other spellings shorthand and queries accept (`pri`).
    public let aliases: [String]
    /// Whether add/modify text sets it with `name:value` (`pri:H`, `due:fri`).
    public let isShorthandKey: Bool
    /// Whether a query term `name:value` matches on it, and the comparisons
    /// it takes after a dot besides (`due.before:fri`, `pri.above:L`).
    public let isQueryKey: Bool
    public let queryComparisons: [String]
    /// Whether a view can sort by it.
    public let isSortKey: Bool
    /// The Taskwarrior attributes it is read from and written to.
    public let taskwarriorNames: [String]
    /// The iCalendar properties it is read from and written to.
    public let icalendarNames: [String]
    /// The todo.txt `key:value` keys it is read from and written to (its
    /// other forms, `(A)` and `+project`, are the format's own syntax).
    public let todoTxtKeys: [String]

    init(
        _ field: ItemField, aliases: [String] = [], shorthand: Bool = false, query: Bool = false, comparisons: [String] = [],
        sort: Bool = false, taskwarrior: [String], icalendar: [String], todoTxt: [String] = []
    ) {
        self.field = field
        self.aliases = aliases
        self.isShorthandKey = shorthand
        self.isQueryKey = query
        self.queryComparisons = comparisons
        self.isSortKey = sort
        self.taskwarriorNames = taskwarrior
        self.icalendarNames = icalendar
        self.todoTxtKeys = todoTxt
    }

    public var name: String { field.rawValue }

    /// Every spelling, the name first.
    public var spellings: [String] { [name] + aliases }
}

extension OwnField {
    public static let title = OwnField(.title, sort: true, taskwarrior: ["description"], icalendar: ["SUMMARY"])
    public static let done = OwnField(.done, taskwarrior: ["status", "end"], icalendar: ["STATUS", "COMPLETED"])
    public static let due = OwnField(
        .due, shorthand: true, query: true, comparisons: ["before", "after"], sort: true, taskwarrior: ["due"], icalendar: ["DUE"],
        todoTxt: ["due"])
    public static let tags = OwnField(.tags, aliases: ["tag"], taskwarrior: ["tags"], icalendar: ["CATEGORIES"])
    public static let project = OwnField(
        .project, aliases: ["pro"], shorthand: true, query: true, sort: true, taskwarrior: ["project"],
        icalendar: ["X-TODOD-PROJECT"])
    public static let priority = OwnField(
        .priority, aliases: ["pri"], shorthand: true, query: true, comparisons: ["above", "below"], sort: true,
        taskwarrior: ["priority"], icalendar: ["PRIORITY"], todoTxt: ["pri"])
    public static let notes = OwnField(
        .notes, aliases: ["note"], taskwarrior: ["annotations"], icalendar: ["DESCRIPTION", "X-TODOD-NOTE"])
    public static let wait = OwnField(.wait, shorthand: true, taskwarrior: ["wait"], icalendar: ["X-TODOD-WAIT"], todoTxt: ["wait"])
    /// Taskwarrior keeps a repetition in a template (`recur`, `rtype`,
    /// `mask`) and numbered occurrences (`parent`, `imask`) that an import
    /// merges into one repeating item.
    public static let recurrence = OwnField(
        .recurrence, aliases: ["recur"], shorthand: true,
        taskwarrior: ["recur", "rtype", "mask", "imask", "parent", "todod_recur"], icalendar: ["RRULE", "X-TODOD-RECURRENCE"],
        todoTxt: ["rec"])

    /// In the order `todoctl show` lists changes to them.
    public static let all: [OwnField] = [.title, .done, .due, .tags, .project, .priority, .notes, .wait, .recurrence]

    /// The own field spelled `spelling` as a shorthand key (`pri`), ignoring case.
    public static func shorthandKey(spelled spelling: some StringProtocol) -> OwnField? {
        shorthandSpellings[spelling.lowercased()]
    }

    private static let shorthandSpellings: [String: OwnField] = Dictionary(
        uniqueKeysWithValues: all.filter(\.isShorthandKey).flatMap { field in field.spellings.map { ($0, field) } })

    /// What every item has besides its own fields, by the same formats'
    /// names: who it is and when it was made and changed, and what the
    /// format works out for itself (Taskwarrior's `urgency`).
    public static let taskwarriorItemNames = ["id", "uuid", "entry", "modified", "urgency"]
    public static let icalendarItemNames = ["UID", "DTSTAMP", "CREATED", "LAST-MODIFIED"]
}
