/// One key of a row on the wire, declared once: its name, the shape of its
/// value, and what it means. The row's JSON Schema, the fast reading of
/// rows in `ListStateDecoding` and the check that every key `TodoRow`
/// encodes is declared (`RowKeyTests`) all come from `TodoRow.keys`, so a
/// new key is a property of `TodoRow` and a line there, nothing else.
///
/// A declared field (`scheduled`, `depends`, todod.conf's) needs no key of
/// its own: its values travel in `values` and `valueTexts`.
public struct RowKey: @unchecked Sendable {
    // Unchecked: the key paths name stored properties of a value type, and
    // never change once made.

    /// The shape of a key's value, and where it lives in a `TodoRow`.
    public enum Value {
        /// Always present, a string.
        case text(WritableKeyPath<TodoRow, String>)
        /// Always present, a string or null; `allowed` lists the only strings it takes, when not empty.
        case textOrNull(WritableKeyPath<TodoRow, String?>, allowed: [String] = [])
        /// Always present, true or false.
        case flag(WritableKeyPath<TodoRow, Bool>)
        /// Present (as true) only when it holds.
        case trueOrAbsent(WritableKeyPath<TodoRow, Bool?>)
        /// Always present, a whole number.
        case count(WritableKeyPath<TodoRow, Int>)
        /// Always present, the item's id.
        case id(WritableKeyPath<TodoRow, Int64>)
        /// Present only when at least 1.
        case levelOrAbsent(WritableKeyPath<TodoRow, Int?>)
        /// Always present, an array of strings.
        case texts(WritableKeyPath<TodoRow, [String]>)
        /// Present only when the item has declared fields: their raw values by name.
        case fieldValues(WritableKeyPath<TodoRow, [String: RowFieldValue]?>)
        /// Present only when the item has declared fields: their values worded, by name.
        case fieldTexts(WritableKeyPath<TodoRow, [String: String]?>)
    }

    public let name: String
    public let value: Value
    /// For the schema and so for anyone writing a client.
    public let meaning: String

    init(_ name: String, _ value: Value, _ meaning: String) {
        self.name = name
        self.value = value
        self.meaning = meaning
    }

    /// Whether every row has the key (null counts as present).
    public var isAlwaysPresent: Bool {
        switch value {
        case .trueOrAbsent, .levelOrAbsent, .fieldValues, .fieldTexts: false
        case .text, .textOrNull, .flag, .count, .id, .texts: true
        }
    }
}

extension TodoRow {
    /// Every key a row can have, in the order the wire writes them (A to Z).
    public static let keys: [RowKey] = [
        RowKey("blocked", .trueOrAbsent(\.blocked), "Present (true) while the item depends on an open item."),
        RowKey("blocking", .trueOrAbsent(\.blocking), "Present (true) while an open item depends on this one."),
        RowKey("completed", .textOrNull(\.completed), "When it was last marked done (ISO 8601), or null."),
        RowKey(
            "context", .trueOrAbsent(\.context),
            "Present (true) on a row shown only as the path to a subtask that matches the view's query; it is not counted."),
        RowKey("created", .text(\.created), "When it was added (ISO 8601)."),
        RowKey("createdText", .text(\.createdText), "\"created today\", \"created 3 days ago\", \"created 2026-10-01\"."),
        RowKey(
            "depth", .levelOrAbsent(\.depth),
            "In a tree view, how many parents are above the row (indent by it); absent at the top level and in flat views."),
        RowKey("done", .flag(\.done), "Marked done."),
        RowKey("due", .textOrNull(\.due), "The due day or moment (ISO 8601), or null."),
        RowKey("dueText", .textOrNull(\.dueText), "\"due tomorrow\", \"due today at 14:00\", or null without a due date."),
        RowKey(
            "fieldsText", .text(\.fieldsText),
            "Priority, project, tags, repetition and declared fields, compactly: \"H · home.garden · +errands · ↻ weekly\"; \"\" when it has none."),
        RowKey(
            "group", .textOrNull(\.group),
            "In a view grouped by project, the row's section header (\"home.garden\", \"(no project)\"); null when the view is not grouped."),
        RowKey("id", .id(\.id), "The number a user types back (todoctl done 3)."),
        RowKey("modified", .text(\.modified), "When it last changed (ISO 8601)."),
        RowKey("noteCount", .count(\.noteCount), "How many notes it has."),
        RowKey("overdue", .flag(\.overdue), "Not done and past due."),
        RowKey("priority", .textOrNull(\.priority, allowed: ["H", "M", "L"]), "H, M, L, or null."),
        RowKey("project", .textOrNull(\.project), "A dotted path such as home.garden, or null."),
        RowKey("recurrence", .textOrNull(\.recurrence), "\"weekly\", \"every 3 days from completion\", or null."),
        RowKey("tags", .texts(\.tags), "A to Z ignoring case, as written."),
        RowKey("title", .text(\.title), "The item's title."),
        RowKey(
            "valueTexts", .fieldTexts(\.valueTexts),
            "The declared fields' values worded: \"scheduled tomorrow\", \"Estimate: 3\". Absent when the item has none."),
        RowKey(
            "values", .fieldValues(\.values),
            "Declared fields' raw values by field name (scheduled, until, depends, parent, todod.conf's): numbers as numbers, dates and durations ISO 8601, parent an item id, depends an array of item ids. Absent when the item has none."
        ),
        RowKey("wait", .textOrNull(\.wait), "The wait day or moment (ISO 8601), or null."),
        RowKey(
            "waitText", .textOrNull(\.waitText), "\"waiting until Monday 30 November\" while a wait date hides the item; else null."),
    ]
}
