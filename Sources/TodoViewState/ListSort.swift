import FoundationEssentials
import TodoModel

/// In which order a list view shows its rows: one or more keys, the first
/// deciding, each later one breaking the ties of those before; the item id
/// breaks any that remain, so every order is total.
///
/// Written as text, `priority,due` or `due-,title`: keys separated by
/// commas, each optionally followed by `+` (its usual direction, the
/// default) or `-` (reversed). The usual directions are the useful ones:
/// created and modified oldest first, title A to Z in natural order ("item
/// 2" before "item 10"), due soonest first, priority highest first, project
/// A to Z, urgency highest first. Items without a due date, priority or
/// project come last in either direction.
///
/// A declared field is a key too, by its name (`scheduled`, `estimate-`):
/// dates soonest first, numbers and durations smallest first, text A to Z
/// ignoring case, and items without a value last in either direction. Sort
/// text is read without the list's fields (it comes off the wire and out of
/// the store on its own), so any name of lowercase letters that is not one
/// of the keys above reads as a field's; the view model refuses a field it
/// does not declare when a view is set. `text` is the canonical form
/// (no `+`), and is what the wire and the store carry: `created`, `title`
/// and `due`, the sorts of the first protocol version, mean what they meant.
public struct ListSort: Hashable, Sendable, CustomStringConvertible {
    public enum Field: Hashable, Sendable {
        case created, modified, title, due, priority, project, urgency
        /// A declared field, by its name (`scheduled`, `estimate`).
        case declared(String)

        /// The keys every list has, in the order messages list them.
        public static let builtIn: [Field] = [.created, .modified, .title, .due, .priority, .project, .urgency]

        /// A built-in key's word, or a name that could be a declared field's
        /// (see `FieldCatalog.problem(withName:)`); nil for anything else.
        public init?(rawValue: String) {
            if let key = Self.builtIn.first(where: { $0.rawValue == rawValue }) {
                self = key
            } else if FieldCatalog.problem(withName: rawValue) == nil {
                self = .declared(rawValue)
            } else {
                return nil
            }
        }

        /// The key as sort text writes it.
        public var rawValue: String {
            switch self {
            case .created: "created"
            case .modified: "modified"
            case .title: OwnField.title.name
            case .due: OwnField.due.name
            case .priority: OwnField.priority.name
            case .project: OwnField.project.name
            case .urgency: "urgency"
            case .declared(let name): name
            }
        }
    }

    public struct Key: Hashable, Sendable {
        public var field: Field
        public var reversed: Bool

        public init(_ field: Field, reversed: Bool = false) {
            self.field = field
            self.reversed = reversed
        }
    }

    /// At least one key; no field twice.
    public let keys: [Key]

    public init(_ keys: [Key]) throws(ListSortError) {
        guard !keys.isEmpty else { throw ListSortError(text: "", message: "a sort needs at least one key") }
        var seen: Set<Field> = []
        for key in keys where !seen.insert(key.field).inserted {
            throw ListSortError(text: "", message: "\(key.field.rawValue) is named twice")
        }
        self.keys = keys
    }

    private init(unchecked keys: [Key]) { self.keys = keys }

    public static let created = ListSort(unchecked: [Key(.created)])
    public static let title = ListSort(unchecked: [Key(.title)])
    public static let due = ListSort(unchecked: [Key(.due)])
    public static let urgency = ListSort(unchecked: [Key(.urgency)])
    public static let priority = ListSort(unchecked: [Key(.priority), Key(.due)])

    /// The sorts `todoctl watch`'s `s` key steps through.
    public static let presets: [ListSort] = [.created, .title, .due, .priority, .urgency]

    /// Reads sort text (see the type's documentation); spaces around keys are allowed.
    public init(parsing text: String) throws(ListSortError) {
        var keys: [Key] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            var word = part.trimmingWhitespace().lowercased()
            var reversed = false
            if word.hasSuffix("-") {
                reversed = true
                word.removeLast()
            } else if word.hasSuffix("+") {
                word.removeLast()
            }
            guard let field = Field(rawValue: word) else {
                throw ListSortError(text: text, message: Self.notAKey(String(part.trimmingWhitespace()), fields: nil))
            }
            keys.append(Key(field, reversed: reversed))
        }
        do { try self.init(keys) } catch { throw ListSortError(text: text, message: error.message) }
    }

    /// Why `word` is no sort key, with the keys there are: the built-in ones,
    /// and the names of `fields` when the list's fields are known.
    static func notAKey(_ word: String, fields: [String]?) -> String {
        "\"\(word)\" is not a sort key; expected keys among \(Field.builtIn.map(\.rawValue).joined(separator: ", ")), "
            + "or a declared field's name\(fields.map { " (\($0.joined(separator: ", ")))" } ?? ""), "
            + "separated by commas, each optionally followed by - to reverse it (priority,due-)"
    }

    /// The canonical text: `priority,due-`.
    public var text: String {
        keys.map { $0.field.rawValue + ($0.reversed ? "-" : "") }.joined(separator: ",")
    }

    public var description: String { text }
}

extension ListSort {
    /// Why the sort cannot order a list declaring `fields`: it names a field
    /// the catalog does not declare by that name. Nil when it can.
    public func problem(with fields: FieldCatalog) -> String? {
        for key in keys {
            guard case .declared(let name) = key.field, !fields.declarations.contains(where: { $0.name == name }) else {
                continue
            }
            if let declaration = fields.declaration(spelled: name) {
                return "\"\(name)\" is not a sort key; a field is sorted by its name, \(declaration.name)"
            }
            return Self.notAKey(name, fields: fields.declarations.map(\.name))
        }
        return nil
    }
}

extension ListSort: Codable, WireTyped {
    public static var wireType: WireType { .named("ListSort") }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { self = try ListSort(parsing: text) } catch {
            // The ListSortError rides along so the protocol layer can answer
            // with its own error (todo.invalidSort) rather than a generic one.
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.message, underlyingError: error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// Why sort text could not be read.
public struct ListSortError: Error, Hashable, Sendable, CustomStringConvertible {
    public var text: String
    public var message: String
    public var description: String { message }
}
