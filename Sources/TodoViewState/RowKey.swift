/// One key of a row on the wire, declared once: its name (a case of
/// `TodoRow.CodingKeys`, which `Codable` writes the row with), the shape of
/// its value, and what it means. The row's JSON Schema, the fast reading of
/// rows in `ListStateDecoding` (and how many keys it keeps bits for) and the
/// check that every key `TodoRow` encodes is declared (`RowKeyTests`) all
/// come from `TodoRow.keys`, so a new key is a property of `TodoRow`, its
/// case in `CodingKeys`, and its line in `declaration` (the compiler asks
/// for the last two), nothing else.
///
/// A declared field (`scheduled`, `depends`, todod.conf's) needs no key of
/// its own: its values travel in `values` and `valueTexts`.
public struct RowKey: Sendable {
    /// The shape of a key's value, and how a value read from the wire is
    /// set on a `TodoRow`. A closure rather than a key path: most of a
    /// row's keys are `@ExplicitNull` properties, through which a key path
    /// write cost todoctl a third more time to read 20,000 rows.
    public enum Value: Sendable {
        /// Always present, a string.
        case text(@Sendable (inout TodoRow, String) -> Void)
        /// Always present, a string or null; `allowed` lists the only strings it takes, when not empty.
        case textOrNull(@Sendable (inout TodoRow, String?) -> Void, allowed: [String] = [])
        /// Always present, true or false.
        case flag(@Sendable (inout TodoRow, Bool) -> Void)
        /// Present (as true) only when it holds.
        case trueOrAbsent(@Sendable (inout TodoRow, Bool?) -> Void)
        /// Always present, a whole number.
        case count(@Sendable (inout TodoRow, Int) -> Void)
        /// Always present, the item's id.
        case id(@Sendable (inout TodoRow, Int64) -> Void)
        /// Present only when at least 1.
        case levelOrAbsent(@Sendable (inout TodoRow, Int?) -> Void)
        /// Always present, an array of strings.
        case texts(@Sendable (inout TodoRow, [String]) -> Void)
        /// Present only when the item has declared fields: their raw values by name.
        case fieldValues(@Sendable (inout TodoRow, [String: RowFieldValue]?) -> Void)
        /// Present only when the item has declared fields: their values worded, by name.
        case fieldTexts(@Sendable (inout TodoRow, [String: String]?) -> Void)
    }

    public let key: TodoRow.CodingKeys
    /// The key's name on the wire, `key`'s text (kept, as rows are read by it).
    public let name: String
    public let value: Value
    /// For the schema and so for anyone writing a client.
    public let meaning: String

    init(_ key: TodoRow.CodingKeys, _ value: Value, _ meaning: String) {
        self.key = key
        self.name = key.stringValue
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
    /// Every key a row can have, in the order the wire writes them (A to Z):
    /// one per case of `CodingKeys`, so the count the fast reader keeps bits
    /// for and the schema's list of keys follow from that enumeration.
    public static let keys: [RowKey] = CodingKeys.allCases.map(\.declaration)
}

extension TodoRow.CodingKeys {
    /// This key's shape and meaning. A switch over the keys: a key added to
    /// `CodingKeys` without a line here does not compile.
    var declaration: RowKey {
        switch self {
        case .blocked:
            RowKey(self, .trueOrAbsent({ $0.blocked = $1 }), "Present (true) while the item depends on an open item.")
        case .blocking:
            RowKey(self, .trueOrAbsent({ $0.blocking = $1 }), "Present (true) while an open item depends on this one.")
        case .completed:
            RowKey(self, .textOrNull({ $0.completed = $1 }), "When it was last marked done (ISO 8601), or null.")
        case .context:
            RowKey(
                self, .trueOrAbsent({ $0.context = $1 }),
                "Present (true) on a row shown only as the path to a subtask that matches the view's query; it is not counted.")
        case .created:
            RowKey(self, .text({ $0.created = $1 }), "When it was added (ISO 8601).")
        case .createdText:
            RowKey(self, .text({ $0.createdText = $1 }), "\"created today\", \"created 3 days ago\", \"created 2026-10-01\".")
        case .depth:
            RowKey(
                self, .levelOrAbsent({ $0.depth = $1 }),
                "In a tree view, how many parents are above the row (indent by it); absent at the top level and in flat views.")
        case .done:
            RowKey(self, .flag({ $0.done = $1 }), "Marked done.")
        case .due:
            RowKey(self, .textOrNull({ $0.due = $1 }), "The due day or moment (ISO 8601), or null.")
        case .dueText:
            RowKey(self, .textOrNull({ $0.dueText = $1 }), "\"due tomorrow\", \"due today at 14:00\", or null without a due date.")
        case .fieldsText:
            RowKey(
                self, .text({ $0.fieldsText = $1 }),
                "Priority, project, tags, repetition and declared fields, compactly: \"H · home.garden · +errands · ↻ weekly\"; \"\" when it has none.")
        case .group:
            RowKey(
                self, .textOrNull({ $0.group = $1 }),
                "In a view grouped by project, the row's section header (\"home.garden\", \"(no project)\"); null when the view is not grouped.")
        case .id:
            RowKey(self, .id({ $0.id = $1 }), "The number a user types back (todoctl done 3).")
        case .modified:
            RowKey(self, .text({ $0.modified = $1 }), "When it last changed (ISO 8601).")
        case .noteCount:
            RowKey(self, .count({ $0.noteCount = $1 }), "How many notes it has.")
        case .overdue:
            RowKey(self, .flag({ $0.overdue = $1 }), "Not done and past due.")
        case .priority:
            RowKey(self, .textOrNull({ $0.priority = $1 }, allowed: ["H", "M", "L"]), "H, M, L, or null.")
        case .project:
            RowKey(self, .textOrNull({ $0.project = $1 }), "A dotted path such as home.garden, or null.")
        case .recurrence:
            RowKey(self, .textOrNull({ $0.recurrence = $1 }), "\"weekly\", \"every 3 days from completion\", or null.")
        case .tags:
            RowKey(self, .texts({ $0.tags = $1 }), "A to Z ignoring case, as written.")
        case .title:
            RowKey(self, .text({ $0.title = $1 }), "The item's title.")
        case .valueTexts:
            RowKey(
                self, .fieldTexts({ $0.valueTexts = $1 }),
                "The declared fields' values worded: \"scheduled tomorrow\", \"Estimate: 3\". Absent when the item has none.")
        case .values:
            RowKey(
                self, .fieldValues({ $0.values = $1 }),
                "Declared fields' raw values by field name (scheduled, until, depends, parent, todod.conf's): numbers as numbers, dates and durations ISO 8601, parent an item id, depends an array of item ids. Absent when the item has none.")
        case .wait:
            RowKey(self, .textOrNull({ $0.wait = $1 }), "The wait day or moment (ISO 8601), or null.")
        case .waitText:
            RowKey(self, .textOrNull({ $0.waitText = $1 }), "\"waiting until Monday 30 November\" while a wait date hides the item; else null.")
        }
    }
}
