import FoundationEssentials

/// What kind of value a declared field holds. Everything a field does
/// besides its own behaviour follows from its kind: how shorthand reads it,
/// which query operators it has, how it sorts, how it is worded, and how
/// each interchange format writes it.
public enum FieldKind: String, Hashable, Sendable, CaseIterable, Codable {
    /// Free text, or one of a declared list of values.
    case text = "string"
    /// A number (`estimate:3.5`).
    case number = "numeric"
    /// A day or a moment, read as natural dates are (`scheduled:mon`).
    case date
    /// A length of time (`2h`, `30min`, `3d`, `1w`, or ISO 8601's `PT2H`).
    case duration
    /// Another item, by id (`parent:3`). Built-in fields only: the list
    /// keeps such links whole (no link to a missing item, no cycle).
    case item
    /// Other items, by id (`depends:3,5`). Built-in fields only, as `item`.
    case items

    /// The kinds todod.conf may declare (links are the list's own).
    public static let declarable: [FieldKind] = [.text, .number, .date, .duration]

    /// The query operators beyond `name:value` and `name:none`.
    public var comparisons: (below: String, above: String)? {
        switch self {
        case .text, .item, .items: nil
        case .number, .duration: ("below", "above")
        case .date: ("before", "after")
        }
    }

    /// The longest text value, in characters (an import's bound too).
    public static let maximumTextLength = 1_000

    /// Reads `text` as a value of this kind. Dates need the clock, so they
    /// go through `dates`; the other kinds do not.
    public func value(of text: String, dates: NaturalDateParser?) throws(FieldValueError) -> FieldValue {
        switch self {
        case .text:
            // Shown in every row and on every terminal of a shared list: one
            // line, no escape sequences, bounded as an import bounds it.
            guard text.count <= Self.maximumTextLength,
                !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw FieldValueError(
                    text: String(text.prefix(40)), expected: "one line of at most \(Self.maximumTextLength) characters without control characters")
            }
            return .text(text)
        case .number:
            guard let number = NumberText.number(text) else {
                throw FieldValueError(text: text, expected: "a number such as 3 or 2.5")
            }
            return .number(number)
        case .date:
            guard let dates else {
                do { try NaturalDateParser.check(text) } catch {
                    throw FieldValueError(text: text, expected: "a date (\(error))")
                }
                return .text(text)  // only checked: the caller resolves it against its clock
            }
            do { return .date(try dates.parse(text)) } catch {
                throw FieldValueError(text: text, expected: "a date (\(error))")
            }
        case .duration:
            guard let seconds = DurationText.seconds(of: text) else {
                throw FieldValueError(text: text, expected: "a duration such as 30min, 2h, 3d, 1w or PT2H")
            }
            return .duration(seconds)
        case .item:
            guard let id = Self.itemID(text) else {
                throw FieldValueError(text: text, expected: "an item id such as 3")
            }
            return .items([id])
        case .items:
            let ids = text.split(separator: ",", omittingEmptySubsequences: false).map { Self.itemID(String($0)) }
            guard !ids.isEmpty, ids.count <= Self.maximumLinks, !ids.contains(nil) else {
                throw FieldValueError(text: text, expected: "item ids such as 3,5 (at most \(Self.maximumLinks))")
            }
            return .items(FieldValue.uniqueIDs(ids.compactMap { $0 }))
        }
    }

    /// `3,5,-7`: ids to add, and (with a minus) ids to take away; nil when
    /// a part is not an id.
    public static func linkChange(_ text: String) -> (add: [TodoID], remove: [TodoID])? {
        var add: [TodoID] = []
        var remove: [TodoID] = []
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= maximumLinks else { return nil }
        for part in parts {
            if part.first == "-" {
                guard let id = itemID(String(part.dropFirst())) else { return nil }
                remove.append(id)
            } else {
                guard let id = itemID(String(part)) else { return nil }
                add.append(id)
            }
        }
        return (add, remove)
    }

    /// Why `text` is not a `linkChange`.
    public static func linkChangeError(_ text: String) -> FieldValueError {
        FieldValueError(text: String(text.prefix(40)), expected: "item ids such as 3,5 (-3 takes 3 away; at most \(maximumLinks))")
    }

    /// The most ids an `items` field holds.
    public static let maximumLinks = 100

    /// `text` as an item id: digits only, positive, within an id's range.
    public static func itemID(_ text: String) -> TodoID? {
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }),
            let raw = Int64(text), raw > 0
        else { return nil }
        return TodoID(raw)
    }
}

/// A value that does not fit its field's kind or allowed values.
public struct FieldValueError: Error, Hashable, Sendable, CustomStringConvertible {
    public var text: String
    public var expected: String

    public init(text: String, expected: String) {
        self.text = text
        self.expected = expected
    }

    public var description: String { "\"\(text)\" is not \(expected)" }
}
