import FoundationEssentials
import TodoModel
import TodoViewState

/// Sorting a whole view fast: each row's keys as three 64-bit words, kept
/// side by side in one array, so that most comparisons of a sort are three
/// integer comparisons in memory already at hand instead of a walk to two
/// keys somewhere on the heap (a view of 100,000 rows spent most of its
/// sort waiting for memory).
///
/// The words are an order-preserving encoding of the view's order
/// (`SortKeys.precedes`): the project group, then each sort key, then the
/// id, as many as fit. When one row's words come before another's, so does
/// the row; when they are equal, the full comparison decides. Each key is
/// encoded exactly (equal words for tying keys only), except the title,
/// whose words are the first 24 elements of its natural-order key, each
/// clamped to a byte: a title ends the words, and titles that share those
/// are compared in full. A declared field's key is a number (dates as their
/// instant) or a text's rank among the rows', as projects are; a field
/// holding both (orphans of another kind) is only told apart from having no
/// value, and ends the words like a title.
struct SortWords {
    /// One row being sorted: its words and its key (kept alive by `SortKeys`).
    struct Entry {
        var first: UInt64
        var second: UInt64
        var third: UInt64
        var key: Unmanaged<SortKeys.Key>
    }

    private enum Part {
        case group
        case key(ListSort.Key)
        /// A declared field's key, by name, and how its values are written.
        case field(String, FieldWords, reversed: Bool)
        case id
    }

    /// How one sorted field's values become a word, decided by the values the rows hold.
    private enum FieldWords {
        /// Numbers (and dates and durations), or no values at all.
        case numbers
        /// Texts, by their place among the rows' texts.
        case texts([String: UInt64])
        /// Both: a value or none, the rest compared in full.
        case mixed
    }

    private let parts: [Part]
    private let sort: ListSort
    private let grouping: ListGrouping?
    /// Each folded project's place among the projects of the rows sorted
    /// (the `project` sort key, which ties projects differing only in case).
    private let projectRanks: [String: UInt64]
    /// Each project's place among the rows' projects, folded and then as
    /// written (the project group, which keeps "Home" and "home" apart so
    /// that each group's rows stay together, as `SortKeys.precedes` does).
    private let groupRanks: [WrittenProject: UInt64]

    /// A project folded for comparing, and as written.
    private struct WrittenProject: Hashable, Comparable {
        var folded: String
        var written: String

        static func < (lhs: Self, rhs: Self) -> Bool {
            lhs.folded != rhs.folded ? lhs.folded < rhs.folded : lhs.written < rhs.written
        }
    }

    init(sort: ListSort, grouping: ListGrouping?, keys: [Unmanaged<SortKeys.Key>]) {
        self.sort = sort
        self.grouping = grouping
        parts =
            (grouping == .project ? [.group] : [])
            + sort.keys.map { key in
                guard case .declared(let name) = key.field else { return Part.key(key) }
                return Part.field(name, Self.fieldWords(name, keys), reversed: key.reversed)
            } + [.id]
        if grouping == .project || sort.keys.contains(where: { $0.field == .project }) {
            var projects = Set<WrittenProject>()
            for reference in keys {
                reference._withUnsafeGuaranteedRef { key in
                    if let folded = key.project { projects.insert(WrittenProject(folded: folded, written: key.projectName ?? folded)) }
                }
            }
            let ordered = projects.sorted()
            groupRanks = Dictionary(uniqueKeysWithValues: ordered.enumerated().map { ($1, UInt64($0)) })
            var folded: [String: UInt64] = [:]
            for project in ordered where folded[project.folded] == nil { folded[project.folded] = UInt64(folded.count) }
            projectRanks = folded
        } else {
            (projectRanks, groupRanks) = ([:], [:])
        }
    }

    /// Whether the rows' values of field `name` are numbers, texts (and
    /// their ranks) or both.
    private static func fieldWords(_ name: String, _ keys: [Unmanaged<SortKeys.Key>]) -> FieldWords {
        var texts = Set<String>()
        var hasNumbers = false
        for reference in keys {
            reference._withUnsafeGuaranteedRef { key in
                switch key.fields[name] {
                case .number?: hasNumbers = true
                case .text(let text)?: texts.insert(text)
                case nil: break
                }
            }
        }
        if texts.isEmpty { return .numbers }
        if hasNumbers { return .mixed }
        return .texts(Dictionary(uniqueKeysWithValues: texts.sorted().enumerated().map { ($1, UInt64($0)) }))
    }

    /// The entries of `keys` in the view's order.
    func sorted(_ keys: [Unmanaged<SortKeys.Key>]) -> [Unmanaged<SortKeys.Key>] {
        var entries = keys.map { entry(for: $0) }
        let (sort, grouping) = (self.sort, self.grouping)
        entries.sort { lhs, rhs in
            if lhs.first != rhs.first { return lhs.first < rhs.first }
            if lhs.second != rhs.second { return lhs.second < rhs.second }
            if lhs.third != rhs.third { return lhs.third < rhs.third }
            return lhs.key._withUnsafeGuaranteedRef { left in
                rhs.key._withUnsafeGuaranteedRef { right in SortKeys.precedes(left, right, by: sort, grouping: grouping) }
            }
        }
        return entries.map(\.key)
    }

    private func entry(for reference: Unmanaged<SortKeys.Key>) -> Entry {
        var words: [UInt64] = []
        words.reserveCapacity(3)
        reference._withUnsafeGuaranteedRef { key in
            parts: for part in parts {
                switch part {
                case .group:
                    words.append(key.project.map { groupRanks[WrittenProject(folded: $0, written: key.projectName ?? $0)]! } ?? .max)
                case .id:
                    words.append(UInt64(bitPattern: key.id.rawValue) ^ Self.signBit)
                case .field(let name, let encoding, let reversed):
                    // Missing last in either direction.
                    switch (key.fields[name], encoding) {
                    case (nil, _): words.append(.max)
                    case (.number(let number)?, .numbers): words.append(Self.ordered(number, reversed: reversed))
                    case (.text(let text)?, .texts(let ranks)):
                        words.append(reversed ? .max - 1 - ranks[text]! : ranks[text]!)
                    default:
                        // Mixed: every value ties here, and what follows must not decide before it does.
                        words.append(0)
                        break parts
                    }
                case .key(let sortKey):
                    let reversed = sortKey.reversed
                    switch sortKey.field {
                    case .created: words.append(Self.ordered(key.createdAt.timeIntervalSinceReferenceDate, reversed: reversed))
                    case .modified: words.append(Self.ordered(key.modifiedAt.timeIntervalSinceReferenceDate, reversed: reversed))
                    case .due:
                        // Missing last in either direction.
                        words.append(key.dueInstant.map { Self.ordered($0.timeIntervalSinceReferenceDate, reversed: reversed) } ?? .max)
                    case .priority:
                        // Highest first (lowest when reversed); none last either way.
                        let rank = UInt64(key.priorityRank)
                        words.append(rank == 0 ? 4 : (reversed ? rank : 4 - rank))
                    case .project:
                        // Missing last in either direction.
                        words.append(key.project.map { reversed ? .max - 1 - projectRanks[$0]! : projectRanks[$0]! } ?? .max)
                    case .urgency:
                        // Highest first.
                        words.append(Self.ordered(key.urgency, reversed: !reversed))
                    case .title:
                        let title = key.titleWords
                        for word in [title.0, title.1, title.2] { words.append(reversed ? ~word : word) }
                        break parts
                    case .declared:
                        preconditionFailure("a declared field's key is a .field part")
                    }
                }
                if words.count >= 3 { break }
            }
        }
        while words.count < 3 { words.append(0) }
        return Entry(first: words[0], second: words[1], third: words[2], key: reference)
    }

    private static let signBit: UInt64 = 1 << 63

    /// A double as a word in the same order (ascending; descending when
    /// `reversed`), both zeros alike. Never `UInt64.max` for a number.
    private static func ordered(_ value: Double, reversed: Bool) -> UInt64 {
        let bits = (value == 0 ? 0 : value).bitPattern
        let word = bits & signBit != 0 ? ~bits : bits | signBit
        return reversed ? ~word : word
    }

    /// The first 24 elements of a natural-order title key as three words,
    /// an element to a byte: one of 255 or more is written as 255 and ends
    /// what is written (zeros follow), so that words that differ are in the
    /// order of the keys, and keys whose words are equal are compared in full.
    static func titleWords(_ title: NaturalSortKey) -> (UInt64, UInt64, UInt64) {
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var clamped = false
        for index in 0..<min(24, title.folded.count) where !clamped {
            let value = title.folded[index]
            clamped = value >= 255
            let byte = UInt64(min(value, 255)) << (8 * (7 - UInt64(index % 8)))
            switch index / 8 {
            case 0: words.0 |= byte
            case 1: words.1 |= byte
            default: words.2 |= byte
            }
        }
        return words
    }
}
