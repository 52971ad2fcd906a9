/// How much one round may delete without being asked.
///
/// From state alone, a list emptied by accident (another data directory, a
/// lost database that the revision check did not catch) or a collection a
/// server lost looks exactly like a person deleting everything. A person
/// rarely deletes a fifth of a list between two rounds; so a round that
/// would delete more than `share` of the to-dos both sides know, and at
/// least `minimum`, deletes nothing, brings nothing in and writes nothing to
/// the server, and asks: `todoctl sync now --allow-deletions` lets the next
/// sync go ahead. Completed
/// to-dos are not counted: clearing them is routine.
public struct DeletionBound: Error, CustomStringConvertible, Sendable {
    /// More than this share of the to-dos synced.
    public static let share = 0.2
    /// And at least this many.
    public static let minimum = 10

    public var count: Int
    public var known: Int
    /// "on the server" or "in the list".
    public var side: String

    /// The refusal, when deleting `count` of `known` to-dos on `side` is
    /// more than a round may do unasked.
    static func held(deleting count: Int, of known: Int, side: String) -> DeletionBound? {
        guard count >= minimum, Double(count) > share * Double(known) else { return nil }
        return DeletionBound(count: count, known: known, side: side)
    }

    public var description: String {
        "this sync would delete \(count) open to-dos of the \(known) synced \(side) (more than \(Int(Self.share * 100)) % and at least \(Self.minimum)), "
            + "so it deleted and changed nothing; if they were deleted on purpose, run: todoctl sync now --allow-deletions"
    }
}
