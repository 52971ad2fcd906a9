/// The keys a query term can have before its colon (`project:home`).
///
/// Each has one canonical spelling (used when a query is written back out)
/// and possibly a short alias. Keys are matched ignoring case. A declared
/// field's name and aliases are keys too (`estimate`, `sch.before`), found
/// in the catalog the parser is given, not here: they change with todod.conf.
enum QueryKey: CaseIterable {
    case project
    case priority
    case priorityAbove
    case priorityBelow
    case due
    case dueBefore
    case dueAfter
    case status

    /// An own field's spellings (`OwnField`), with the comparison after a dot.
    var spellings: [String] {
        func spelled(_ field: OwnField, _ comparison: String? = nil) -> [String] {
            precondition(field.isQueryKey && comparison.map(field.queryComparisons.contains) != false)
            return field.spellings.map { spelling in comparison.map { spelling + "." + $0 } ?? spelling }
        }
        return switch self {
        case .project: spelled(.project)
        case .priority: spelled(.priority)
        case .priorityAbove: spelled(.priority, "above")
        case .priorityBelow: spelled(.priority, "below")
        case .due: spelled(.due)
        case .dueBefore: spelled(.due, "before")
        case .dueAfter: spelled(.due, "after")
        case .status: ["status"]
        }
    }

    var canonicalSpelling: String { spellings[0] }

    init?(spelling: String) {
        let lowered = spelling.lowercased()
        guard let key = Self.allCases.first(where: { $0.spellings.contains(lowered) }) else { return nil }
        self = key
    }

    /// Every spelling, for the message that answers an unknown key.
    static var knownSpellings: String {
        allCases.flatMap(\.spellings).joined(separator: ", ")
    }

    /// Whether `text` has the shape of a key: letters, optionally in
    /// dot-separated parts (`due.before`). Only words whose part before the
    /// first colon has this shape are read as `key:value`, so `12:30` or
    /// `a-b:c` stay plain words.
    static func hasKeyShape(_ text: some StringProtocol) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter, text.last != "." else { return false }
        var previousWasDot = false
        for character in text {
            if character == "." {
                if previousWasDot { return false }
                previousWasDot = true
            } else if character.isASCII && character.isLetter {
                previousWasDot = false
            } else {
                return false
            }
        }
        return true
    }
}
