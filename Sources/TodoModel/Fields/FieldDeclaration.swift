/// Everything todod knows about one declared field, in one place.
///
/// A field declared here gets, without code elsewhere: shorthand
/// (`name:value`, `name:` to clear), queries (`name:value`, `name:none`, and
/// the kind's comparisons such as `name.before:fri`), a sort key, a raw and
/// a worded value in every row, a line in `todoctl show`, storage in both
/// stores, and its place in each interchange format. What a field *does*
/// beyond holding a value (`until` ends a repetition, `scheduled` makes the
/// query `ready`) is behaviour, and lives in the view models, named after it.
///
/// Built-in fields have a file each in this folder and are listed in
/// `FieldCatalog.builtIn`; user-defined ones come from todod.conf
/// (`field.estimate = numeric "Estimate"`).
public struct FieldDeclaration: Hashable, Sendable {
    /// Lowercase ASCII letters (`estimate`): the shorthand and query key, the
    /// sort key, and the key in rows' `values`.
    public let name: String
    /// Other spellings shorthand and queries accept (`sch` for `scheduled`).
    public let aliases: [String]
    /// For people: `todoctl show` and the rows' wording ("Estimate").
    public let label: String
    public let kind: FieldKind
    /// For a text field, the only values it takes (`size = string "Size" S,M,L`); empty for any.
    public let allowedValues: [String]
    /// Its attribute in Taskwarrior's JSON (a UDA's is its name).
    public let taskwarriorName: String
    /// Its iCalendar property (`X-TODOD-ESTIMATE` for a user-defined field).
    public let icalendarName: String
    /// Its key in a todo.txt line (`t` for `scheduled`, todo.txt's threshold).
    public let todoTxtKey: String
    /// From the code rather than todod.conf.
    public let isBuiltIn: Bool

    public init(
        name: String, aliases: [String] = [], label: String, kind: FieldKind, allowedValues: [String] = [],
        taskwarriorName: String? = nil, icalendarName: String? = nil, todoTxtKey: String? = nil, isBuiltIn: Bool = false
    ) {
        self.name = name
        self.aliases = aliases
        self.label = label
        self.kind = kind
        self.allowedValues = allowedValues
        self.taskwarriorName = taskwarriorName ?? name
        self.icalendarName = icalendarName ?? "X-TODOD-" + name.uppercased()
        self.todoTxtKey = todoTxtKey ?? name
        self.isBuiltIn = isBuiltIn
    }

    /// Every spelling, the name first.
    public var spellings: [String] { [name] + aliases }

    /// The field this declaration's changes are recorded under (`todoctl show`'s "changed").
    public var itemField: ItemField { ItemField(rawValue: name) }

    /// Reads a typed value (dates only checked when `dates` is nil) and checks the allowed values.
    public func value(of text: String, dates: NaturalDateParser?) throws(FieldValueError) -> FieldValue {
        if kind == .text, !allowedValues.isEmpty {
            guard let allowed = allowedValues.first(where: { $0.lowercased() == text.lowercased() }) else {
                throw FieldValueError(text: text, expected: "one of \(allowedValues.joined(separator: ", ")) for \(name)")
            }
            return .text(allowed)
        }
        return try kind.value(of: text, dates: dates)
    }
}
