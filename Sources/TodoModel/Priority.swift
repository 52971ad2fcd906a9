/// How much an item matters: high, medium or low. An item may also have none.
///
/// Written as one letter (H, M, L) everywhere a person types or reads it, and
/// encoded as that letter, so stored items and protocol messages read the same
/// as the command line. "No priority" is `nil` (an optional `Priority`), not a
/// case, so it cannot be confused with a chosen level.
public enum Priority: String, CaseIterable, Comparable, Hashable, Sendable, Codable, CustomStringConvertible {
    case low = "L"
    case medium = "M"
    case high = "H"

    /// Reads `H`, `M` or `L` in either case; `nil` for anything else.
    public init?(letter: some StringProtocol) {
        guard let priority = Priority(rawValue: letter.uppercased()) else { return nil }
        self = priority
    }

    public var letter: String { rawValue }

    public var description: String { rawValue }

    private var rank: Int {
        switch self {
        case .low: 0
        case .medium: 1
        case .high: 2
        }
    }

    public static func < (lhs: Priority, rhs: Priority) -> Bool {
        lhs.rank < rhs.rank
    }
}
